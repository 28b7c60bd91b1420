"""A roster a player prints or shares: every card, fighter, equipment and cost, the quota and
the shares (I-D-1, I-D-4, I-D-8) and the validator's verdict, as data, Markdown or HTML.

:func:`roster_document` is the JSON document of ``confrontation army show --format json``
(described field by field in docs/army-lists.md); :func:`roster_markdown` and
:func:`roster_html` render it.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape as html_escape
from typing import Any

from confrontation.armylists.load import Nation, bundled_nations
from confrontation.armylists.validate import CardLine, Report, max_per_card


def _people(key: str, nations: Mapping[str, Nation]) -> dict[str, str]:
    nation = nations.get(key)
    return {
        "key": key,
        "totem": nation.totem if nation else key,
        "name": nation.name if nation else key,
    }


def _card(line: CardLine) -> dict[str, Any]:
    card = line.card
    profile = card.profile
    costs = dict((item.id, cost) for item, cost in line.price.equipment) if line.price else {}
    return {
        "card": card.index,
        "profile": profile.id,
        "name": profile.name,
        "people": profile.people,
        "rank": profile.rank,
        "champion": profile.champion,
        "ally": line.ally,
        "recruited": line.recruited,
        "sample": profile.sample,
        "count": card.count,
        "max_per_card": max_per_card(line),
        "card_ap": profile.ap,
        "gear": list(profile.equipment),
        "equipment": [
            {
                "id": item.id,
                "name": item.name,
                "kind": item.kind,
                "cost": costs.get(item.id),
                "people": list(item.people),
            }
            for item in card.equipment
        ],
        "spells": list(card.spells),
        "miracles": list(card.miracles),
        "unit_ap": line.unit_ap,
        "total_ap": line.total_ap,
        "characteristics": dict(profile.characteristics()),
        "abilities": list(profile.abilities),
    }


def _share(value: int, points: int) -> float:
    return round(100 * value / points, 1) if points else 0.0


def roster_document(report: Report, file: str | None = None) -> dict[str, Any]:
    """The roster as JSON data (``army show --format json``)."""
    nations = bundled_nations()
    points = report.points
    return {
        "name": report.name,
        "file": file,
        "people": _people(report.people, nations),
        "points": points,
        "cards": [_card(line) for line in report.lines],
        "total_ap": report.total_ap,
        "fighters": report.fighters,
        "quota": report.quota,
        "champions_ap": report.champions_ap,
        "champions_share": _share(report.champions_ap, points),
        "champions_minimum_ap": -(-points // 5),  # 20 %, I-D-4
        "allies_ap": report.allies_ap,
        "allies_share": _share(report.allies_ap, points),
        "allies_maximum_ap": 3 * points // 10,  # 30 %, I-D-8
        "fighter_maximum_ap": 2 * points // 5,  # 40 %, I-D-3
        "valid": report.valid,
        "violations": [{"rule": v.rule, "message": v.message} for v in report.violations],
        "notes": [{"rule": n.rule, "message": n.message} for n in report.notes],
    }


def _what(card: Mapping[str, Any]) -> str:
    parts = []
    if card["champion"]:
        parts.append("champion")
    if card["ally"]:
        parts.append(f"ally ({card['people']})")
    if not card["recruited"]:
        parts.append("summoned: not in the total")
    if card["sample"]:
        parts.append("sample profile")
    return ", ".join(parts)


def _items(card: Mapping[str, Any]) -> list[str]:
    items = list(card["gear"])
    items += [
        f"{item['name']} ({'?' if item['cost'] is None else item['cost']} AP)"
        for item in card["equipment"]
    ]
    items += [f"spell {name}" for name in card["spells"]]
    items += [f"miracle {name}" for name in card["miracles"]]
    return items


def _summary(doc: Mapping[str, Any]) -> list[str]:
    return [
        f"Total: {doc['total_ap']}/{doc['points']} AP",
        f"Fighters: {doc['fighters']}/{doc['quota']} (I-D-1, 5 per 100 AP started)",
        f"Champions: {doc['champions_ap']} AP = {doc['champions_share']:g} % "
        f"(at least {doc['champions_minimum_ap']} AP, I-D-4)",
        f"Allies: {doc['allies_ap']} AP = {doc['allies_share']:g} % "
        f"(at most {doc['allies_maximum_ap']} AP, I-D-8)",
    ]


def _verdict(doc: Mapping[str, Any]) -> list[str]:
    lines = ["Valid army list." if doc["valid"] else "INVALID army list."]
    lines += [f"{v['rule']}: {v['message']}" for v in doc["violations"]]
    lines += [f"note: {n['rule']}: {n['message']}" for n in doc["notes"]]
    return lines


def _md_cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def roster_markdown(doc: Mapping[str, Any]) -> str:
    """The roster as a Markdown document."""
    people = doc["people"]
    out = [
        f"# {_md_cell(doc['name'])}",
        "",
        f"{_md_cell(people['name'])} ({_md_cell(people['totem'])}), {doc['points']} AP",
        "",
        "| # | card | fighters | equipment | unit AP | total AP | notes |",
        "|---:|---|---:|---|---:|---:|---|",
    ]
    for card in doc["cards"]:
        out.append(
            "| "
            + " | ".join(
                _md_cell(cell)
                for cell in (
                    card["card"],
                    f"{card['name']} (`{card['profile']}`)",
                    f"{card['count']} (max {card['max_per_card']})",
                    ", ".join(_items(card)) or "-",
                    card["unit_ap"],
                    card["total_ap"],
                    _what(card) or "-",
                )
            )
            + " |"
        )
    out.append("")
    out += [f"- {_md_cell(line)}" for line in _summary(doc)]
    out.append("")
    verdict = _verdict(doc)
    out.append(f"**{verdict[0]}**")
    out += [f"- {_md_cell(line)}" for line in verdict[1:]]
    return "\n".join(out) + "\n"


_STYLE = """
body { font-family: serif; margin: 2em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #444; padding: 0.25em 0.5em; text-align: left; }
td.n, th.n { text-align: right; }
.invalid { color: #a00; } .valid { color: #070; } .note { color: #850; }
@media print { body { margin: 0; } }
"""


def roster_html(doc: Mapping[str, Any]) -> str:
    """The roster as one printable HTML page (no scripts, no outside resources)."""

    def e(value: object) -> str:
        return html_escape(str(value))

    people = doc["people"]
    rows = []
    for card in doc["cards"]:
        rows.append(
            "<tr>"
            f'<td class="n">{e(card["card"])}</td>'
            f"<td>{e(card['name'])} <code>{e(card['profile'])}</code></td>"
            f'<td class="n">{e(card["count"])} (max {e(card["max_per_card"])})</td>'
            f"<td>{e(', '.join(_items(card)) or '-')}</td>"
            f'<td class="n">{e(card["unit_ap"])}</td>'
            f'<td class="n">{e(card["total_ap"])}</td>'
            f"<td>{e(_what(card))}</td>"
            "</tr>"
        )
    verdict = _verdict(doc)
    kind = "valid" if doc["valid"] else "invalid"
    problems = "".join(f'<li class="invalid">{e(line)}</li>' for line in verdict[1:])
    problems = problems.replace('class="invalid">note: ', 'class="note">note: ')
    header = (
        '<tr><th class="n">#</th><th>card</th><th class="n">fighters</th><th>equipment</th>'
        '<th class="n">unit AP</th><th class="n">total AP</th><th>notes</th></tr>'
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f"<title>{e(doc['name'])}</title><style>{_STYLE}</style></head><body>\n"
        f"<h1>{e(doc['name'])}</h1>\n"
        f"<p>{e(people['name'])} ({e(people['totem'])}), {e(doc['points'])} AP</p>\n"
        f"<table>{header}{''.join(rows)}</table>\n"
        f"<ul>{''.join(f'<li>{e(line)}</li>' for line in _summary(doc))}</ul>\n"
        f'<p class="{kind}"><strong>{e(verdict[0])}</strong></p>\n'
        + (f"<ul>{problems}</ul>\n" if problems else "")
        + "</body></html>\n"
    )
