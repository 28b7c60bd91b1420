"""The battlefield's geometry: a pure layer (no rules state, no dice) the engine asks.

Table and zones (III-A-1), bases (I-B), scenery (III-A-3), distances (V-A), contact (II-E),
line of sight (II-D, II-F-1), movement paths (V-A) and SVG rendering.
"""

from confrontation.geometry.bases import (
    Base,
    field_of_view,
    in_field_of_view,
    max_enemies_in_contact,
    size_rank,
)
from confrontation.geometry.contact import (
    CONTACT_TOLERANCE_CM,
    ContactPlacement,
    contact_by_move_possible,
    in_contact,
    nearest_contact_position,
    sight_touches,
    touching,
)
from confrontation.geometry.field import Battlefield
from confrontation.geometry.measure import (
    distance,
    geometry_distance,
    point_distance,
    wholly_within,
    within,
)
from confrontation.geometry.paths import Path, move_obstacles, shortest_path
from confrontation.geometry.scenery import Scenery, crossable, layout_problems, random_layout
from confrontation.geometry.sight import Barrier, Sight, line_of_sight
from confrontation.geometry.table import Table, Zone

__all__ = [
    "CONTACT_TOLERANCE_CM",
    "Barrier",
    "Base",
    "Battlefield",
    "ContactPlacement",
    "Path",
    "Scenery",
    "Sight",
    "Table",
    "Zone",
    "contact_by_move_possible",
    "crossable",
    "distance",
    "field_of_view",
    "geometry_distance",
    "in_contact",
    "in_field_of_view",
    "layout_problems",
    "line_of_sight",
    "max_enemies_in_contact",
    "move_obstacles",
    "nearest_contact_position",
    "point_distance",
    "random_layout",
    "shortest_path",
    "sight_touches",
    "size_rank",
    "touching",
    "wholly_within",
    "within",
]
