#!/usr/bin/env python3
"""Per-module report of a cargo-mutants run (its outcomes.json): caught, missed, unviable
and timed-out mutants, and the share of viable ones caught. A missed or timed-out mutant
is forgiven only if referee/MUTANTS.md lists it, under "Equivalent mutants", as
`- `FILE: DESCRIPTION`: reason` (the mutant's name without its line and column, which move
when the code does), or, where one function has two mutants of that name, as
`- `FILE: DESCRIPTION` at `SOURCE LINE`: reason` (the mutated line, trimmed, as it reads
in FILE). Exits 1 if any other was missed.

    scripts/mutants-report.py OUTCOMES_JSON MUTANTS_MD
"""
import collections
import json
import re
import sys


def key(name):
    """`referee/src/a.rs:28:9: replace f with ()` -> `referee/src/a.rs: replace f with ()`."""
    return re.sub(r"^([^:]+):\d+:\d+: ", r"\1: ", name)


def equivalents(path):
    """`{key: {source line, or None for any line}}` of the listed equivalent mutants."""
    text = open(path, encoding="utf-8").read()
    part = text.split("## Equivalent mutants", 1)
    listed = collections.defaultdict(set)
    if len(part) < 2:
        return listed
    section = part[1].split("\n## ", 1)[0]
    for name, line in re.findall(r"^- `([^`]+)`(?: at `([^`]+)`)?", section, re.M):
        listed[name].add(line or None)
    return listed


def source_line(mutant):
    """The trimmed line of the mutant's file where it is planted ("" if unreadable)."""
    try:
        with open(mutant["file"], encoding="utf-8") as f:
            lines = f.read().splitlines()
        return lines[mutant["span"]["start"]["line"] - 1].strip()
    except (OSError, IndexError, KeyError):
        return ""


def is_forgiven(mutant, listed):
    lines = listed.get(key(mutant["name"]))
    return bool(lines) and (None in lines or source_line(mutant) in lines)


def main(outcomes_path, mutants_md):
    outcomes = json.load(open(outcomes_path, encoding="utf-8"))["outcomes"]
    forgiven = equivalents(mutants_md)
    per_file = collections.defaultdict(collections.Counter)
    unexplained = []
    for o in outcomes:
        mutant = o["scenario"].get("Mutant") if isinstance(o["scenario"], dict) else None
        if mutant is None:
            continue  # the baseline
        summary = o["summary"]
        kind = {"CaughtMutant": "caught", "MissedMutant": "missed", "Unviable": "unviable",
                "Timeout": "timeout"}.get(summary, summary)
        per_file[mutant["file"]][kind] += 1
        if kind in ("missed", "timeout"):
            if is_forgiven(mutant, forgiven):
                per_file[mutant["file"]]["equivalent"] += 1
            else:
                unexplained.append(mutant["name"])
    print(f"{'module':48} caught missed equiv unviable timeout  caught/viable")
    for file, c in sorted(per_file.items()):
        viable = c["caught"] + c["missed"] + c["timeout"] - c["equivalent"]
        share = f"{100 * c['caught'] / viable:.0f}%" if viable else "-"
        print(f"{file:48} {c['caught']:6} {c['missed']:6} {c['equivalent']:5} "
              f"{c['unviable']:8} {c['timeout']:7}  {share:>6}")
    for name in unexplained:
        print(f"MISSED (not listed as equivalent): {name}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
