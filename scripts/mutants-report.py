#!/usr/bin/env python3
"""Per-module report of cargo-mutants runs (their outcomes.json), as a Markdown table:
caught, missed, equivalent, unviable and timed-out mutants, and the share of the viable
ones (caught, missed or timed out; not the equivalent nor the unviable) that were caught.
Of several runs, the last outcome of each mutant counts (a re-run of the missed ones after
new tests, given last). A missed or timed-out mutant counts as equivalent only if
referee/MUTANTS.md lists it, under "Equivalent mutants", as `- `FILE: DESCRIPTION`: reason`
(the mutant's name without its line and column, which move when the code does), or, where
one function has two mutants of that name, as `- `FILE: DESCRIPTION` at `SOURCE LINE`:
reason` (the mutated line, trimmed, as it reads in FILE). Exits 1 if any other was missed
or timed out.

    scripts/mutants-report.py OUTCOMES_JSON... MUTANTS_MD
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


def main(outcome_paths, mutants_md):
    # The last run of each mutant counts: a re-run of the missed ones after new tests
    # (`-F`), given after the full run, replaces their first outcome.
    latest = {}
    for path in outcome_paths:
        for o in json.load(open(path, encoding="utf-8"))["outcomes"]:
            mutant = o["scenario"].get("Mutant") if isinstance(o["scenario"], dict) else None
            if mutant is not None:  # not the baseline
                latest[mutant["name"]] = (mutant, o["summary"])
    forgiven = equivalents(mutants_md)
    per_file = collections.defaultdict(collections.Counter)
    unexplained = []
    for mutant, summary in latest.values():
        kind = {"CaughtMutant": "caught", "MissedMutant": "missed", "Unviable": "unviable",
                "Timeout": "timeout"}.get(summary, summary)
        if kind in ("missed", "timeout"):
            if is_forgiven(mutant, forgiven):
                kind = "equivalent"
            else:
                unexplained.append(mutant["name"])
        per_file[mutant["file"]][kind] += 1
    total = sum(per_file.values(), collections.Counter())
    print("| module | mutants | caught | missed | equivalent | unviable | timed out "
          "| caught / viable |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for file, c in sorted(per_file.items()) + [("all", total)]:
        viable = c["caught"] + c["missed"] + c["timeout"]
        share = f"{100 * c['caught'] / viable:.0f}%" if viable else "-"
        name = f"`{file}`" if file != "all" else "**all**"
        print(f"| {name} | {sum(c.values())} | {c['caught']} | {c['missed']} "
              f"| {c['equivalent']} | {c['unviable']} | {c['timeout']} | {share} |")
    for name in unexplained:
        print(f"MISSED (not listed as equivalent): {name}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:-1], sys.argv[-1]))
