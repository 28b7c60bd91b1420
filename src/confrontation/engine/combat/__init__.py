"""The combat phase (IV-C, chapter VII): its driver, questions, events and sentences, pursuits
and attacks on scenery."""
