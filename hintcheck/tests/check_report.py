#!/usr/bin/env python3
"""Checks a libmpi_info_hintcheck report (docs/hintcheck.md) from a job of hintjob.c.

    check_report.py schema REPORT                      the report is valid JSON of the schema
    check_report.py codes MPI NP REPORT STDERR         exactly the findings hintjob codes makes
    check_report.py disagree MPI NP REPORT STDERR      the disagreements of hintjob disagree
    check_report.py long MPI NP REPORT STDERR          a key too long for a second target
    check_report.py repeat MPI NP REPORT STDERR        equal calls merged with a count
    check_report.py windows MPI NP REPORT STDERR       the other three window calls
    check_report.py threads MPI NP REPORT STDERR       calls from 2 threads under MPI_THREAD_MULTIPLE
    check_report.py hang MPI NP REPORT STDERR          the disagreement printed and written before the hang

MPI is mpich or openmpi, NP the number of processes. Prints each failed check and ends with
"check_report: N passed, M failed"; exits non-zero if a check failed.
"""

import json
import re
import sys

CODES = {"unknown-key", "bad-value", "unit-suffix", "out-of-range", "not-read-by-target",
         "too-long-for-target", "conflict"}
STATUSES = {"kept", "changed", "dropped", "added", "misread"}
CALLS = {"MPI_File_open", "MPI_File_set_info", "MPI_File_set_view", "MPI_Win_create",
         "MPI_Win_allocate", "MPI_Win_allocate_shared", "MPI_Win_create_dynamic",
         "MPI_Win_set_info", "MPI_Comm_set_info", "MPI_Comm_dup_with_info",
         "MPI_Comm_split_type", "MPI_Comm_spawn", "MPI_Comm_spawn_multiple", "MPI_Session_init"}

passed = 0
failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")
    return cond


def is_str(x):
    return isinstance(x, str)


def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def schema(report):
    """Every field of docs/hintcheck.md's schema, with its type."""
    ok = check(isinstance(report, dict), "the report is an object")
    if not ok:
        return False
    top = {"tool": is_str, "version": is_str, "implementation": is_str, "target": is_str,
           "rank": is_int, "world_size": is_int, "finalized": lambda x: isinstance(x, bool),
           "checked_calls": is_int, "findings": is_int, "mismatches": is_int,
           "notes": lambda x: isinstance(x, list) and all(map(is_str, x)),
           "calls": lambda x: isinstance(x, list)}
    for field, test in top.items():
        ok &= check(field in report and test(report[field]), f"top-level {field!r} present and well typed")
    if not ok:
        return False
    bad = []
    for i, c in enumerate(report["calls"]):
        where = f"calls[{i}]"
        if not isinstance(c, dict):
            bad.append(f"{where} is not an object")
            continue
        for field, test in {"call": lambda x: x in CALLS, "count": lambda x: is_int(x) and x >= 1,
                            "comm_size": lambda x: is_int(x) and x >= 1, "target": is_str,
                            "hints": list, "diagnostics": list, "mismatches": list,
                            "effective": list, "notes": list}.items():
            value = c.get(field)
            good = test(value) if not isinstance(test, type) else isinstance(value, test)
            if not good:
                bad.append(f"{where}.{field} = {value!r}")
        if c.get("call", "").startswith("MPI_File_open") and not is_str(c.get("filename")):
            bad.append(f"{where}: MPI_File_open without a filename")
        for h in c.get("hints", []):
            if not (isinstance(h, dict) and is_str(h.get("key")) and is_str(h.get("value"))):
                bad.append(f"{where}.hints: {h!r}")
        for d in c.get("diagnostics", []):
            if not (isinstance(d, dict) and is_str(d.get("key")) and is_str(d.get("value"))
                    and d.get("code") in CODES and is_str(d.get("message"))
                    and ("suggestion" not in d or is_str(d["suggestion"]))
                    and set(d) <= {"key", "value", "code", "message", "suggestion"}):
                bad.append(f"{where}.diagnostics: {d!r}")
        for m in c.get("mismatches", []):
            good = isinstance(m, dict) and is_str(m.get("key")) and isinstance(m.get("values"), list) and len(m["values"]) >= 2
            for g in m.get("values", []) if good else []:
                good &= isinstance(g, dict) and (g.get("value") is None or is_str(g.get("value"))) \
                    and isinstance(g.get("ranks"), list) and len(g["ranks"]) >= 1 and all(map(is_int, g["ranks"]))
            if not good:
                bad.append(f"{where}.mismatches: {m!r}")
        for e in c.get("effective", []):
            good = isinstance(e, dict) and is_str(e.get("key")) and e.get("status") in STATUSES
            if good:
                req, eff, st = e.get("requested"), e.get("effective"), e["status"]
                good = (req is None or is_str(req)) and (eff is None or is_str(eff))
                good &= {"added": req is None and eff is not None, "dropped": req is not None and eff is None,
                         "changed": req is not None and eff is not None and req != eff,
                         "kept": req is not None and req == eff, "misread": req is not None and req == eff}[st]
            if not good:
                bad.append(f"{where}.effective: {e!r}")
        if not all(map(is_str, c.get("notes", []))):
            bad.append(f"{where}.notes")
    for b in bad[:10]:
        print("  schema:", b)
    return check(not bad, f"every call entry matches the schema ({len(bad)} problems)")


def load(path):
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{path} is valid JSON ({e})")
        return None
    check(True, f"{path} is valid JSON")
    return report


def calls_named(report, name):
    return [c for c in report["calls"] if c["call"] == name]


# What hintjob codes passes (hintjob.c), what the checker says of it on each MPI, and what each
# MPI does with it: for each call, the exact diagnostics as (key, code, suggestion) in order, the
# status of each key passed, and whether the MPI reports keys that were not passed ("added").
CODES_EXPECTED = {
    "MPI_File_open": {
        "diagnostics": {
            "mpich": [("cb_buffer_size", "unit-suffix", "16777216"), ("striping_factr", "unknown-key", "striping_factor"),
                      ("romio_cb_write", "bad-value", None), ("striping_factor", "out-of-range", None),
                      ("romio_no_indep_rw", "conflict", None), ("stripe_width", "not-read-by-target", "striping_factor")],
            "openmpi": [("cb_buffer_size", "unit-suffix", "16777216"), ("striping_factr", "unknown-key", "striping_factor"),
                        ("romio_cb_write", "not-read-by-target", None), ("striping_factor", "out-of-range", None),
                        ("cb_config_list", "not-read-by-target", None), ("romio_cb_read", "not-read-by-target", None),
                        ("romio_no_indep_rw", "not-read-by-target", None), ("stripe_width", "conflict", None),
                        ("stripe_width", "conflict", None)]},
        # Open MPI 4.1.4's MPI_File_get_info returns the caller's hints as given.
        # MPICH: romio_no_indep_rw=true turns collective buffering for reads back on, as the
        # conflict says: romio_cb_read=disable is reported as enable.
        "status": {"mpich": {"cb_buffer_size": "misread", "striping_factr": "dropped", "romio_cb_write": "changed",
                             "striping_factor": "dropped", "cb_nodes": "kept", "cb_config_list": "kept",
                             "romio_cb_read": "changed", "romio_no_indep_rw": "kept", "stripe_width": "dropped"},
                   "openmpi": {"cb_buffer_size": "misread", "striping_factr": "kept", "romio_cb_write": "kept",
                               "striping_factor": "kept", "cb_nodes": "kept", "cb_config_list": "kept",
                               "romio_cb_read": "kept", "romio_no_indep_rw": "kept", "stripe_width": "kept"}},
        "added": {"mpich": True, "openmpi": False},
    },
    "MPI_File_set_view": {
        "diagnostics": {"mpich": [], "openmpi": [("ind_rd_buffer_size", "not-read-by-target", None)]},
        "status": {"mpich": {"ind_rd_buffer_size": "kept"}, "openmpi": {"ind_rd_buffer_size": "dropped"}},
        "added": {"mpich": True, "openmpi": True},
    },
    "MPI_File_set_info": {
        "diagnostics": {"mpich": [], "openmpi": [("romio_ds_read", "not-read-by-target", None)]},
        "status": {"mpich": {"romio_ds_read": "kept"}, "openmpi": {"romio_ds_read": "dropped"}},
        "added": {"mpich": True, "openmpi": True},
    },
    "MPI_Win_allocate": {
        "diagnostics": {"mpich": [("no_lock", "unknown-key", "no_locks"), ("same_size", "bad-value", None)],
                        "openmpi": [("no_lock", "unknown-key", "no_locks"), ("same_size", "bad-value", None)]},
        "status": {"mpich": {"no_locks": "kept", "accumulate_ordering": "kept", "no_lock": "dropped", "same_size": "changed"},
                   "openmpi": {"no_locks": "kept", "accumulate_ordering": "kept", "no_lock": "kept", "same_size": "misread"}},
        "added": {"mpich": True, "openmpi": False},
    },
    "MPI_Win_set_info": {
        "diagnostics": {"mpich": [], "openmpi": [("accumulate_ordering", "bad-value", None)]},
        "status": {"mpich": {"accumulate_ordering": "kept"}, "openmpi": {"accumulate_ordering": "dropped"}},
        "added": {"mpich": True, "openmpi": True},
    },
    "MPI_Comm_dup_with_info": {
        "diagnostics": {"mpich": [("mpi_assert_allow_overtaking", "bad-value", None), ("mpi_assert_no_any_sourc", "unknown-key", "mpi_assert_no_any_source")],
                        "openmpi": [("mpi_assert_no_any_tag", "not-read-by-target", None), ("mpi_assert_no_any_sourc", "unknown-key", "mpi_assert_no_any_source")]},
        "status": {"mpich": {"mpi_assert_no_any_tag": "kept", "mpi_assert_allow_overtaking": "changed", "mpi_assert_no_any_sourc": "dropped"},
                   "openmpi": {"mpi_assert_no_any_tag": "kept", "mpi_assert_allow_overtaking": "changed", "mpi_assert_no_any_sourc": "kept"}},
        "added": {"mpich": True, "openmpi": True},
    },
    "MPI_Comm_set_info": {
        "diagnostics": {"mpich": [], "openmpi": []},
        "status": {"mpich": {"mpi_assert_allow_overtaking": "kept"}, "openmpi": {"mpi_assert_allow_overtaking": "kept"}},
        "added": {"mpich": True, "openmpi": True},
    },
}
# MPI_Comm_split_type gets the hints of MPI_Comm_dup_with_info.
CODES_EXPECTED["MPI_Comm_split_type"] = CODES_EXPECTED["MPI_Comm_dup_with_info"]

def common(report, mpi, np):
    check(report["target"] == mpi, f"target is {mpi} (got {report['target']!r})")
    check(report["world_size"] == np and report["rank"] == 0, "rank 0 of NP processes")
    check(report["finalized"] is True, "finalized after MPI_Finalize")
    check(report["notes"] == [], f"no notes at the top ({report['notes']})")
    total = sum(c["count"] for c in report["calls"])
    check(report["checked_calls"] == total, f"checked_calls {report['checked_calls']} = sum of counts {total}")
    check(report["findings"] == sum(len(c["diagnostics"]) * c["count"] for c in report["calls"]), "findings total")
    check(report["mismatches"] == sum(len(c["mismatches"]) * c["count"] for c in report["calls"]), "mismatches total")


def codes(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    check(sorted(c["call"] for c in report["calls"]) == sorted(CODES_EXPECTED), "one entry per call made")
    for name, exp in CODES_EXPECTED.items():
        for c in calls_named(report, name):
            check(c["comm_size"] == np, f"{name}: comm_size {c['comm_size']}")
            got = [(d["key"], d["code"], d.get("suggestion")) for d in c["diagnostics"]]
            check(got == exp["diagnostics"][mpi], f"{name}: diagnostics {got} == {exp['diagnostics'][mpi]}")
            check(all(d["message"] for d in c["diagnostics"]), f"{name}: every diagnostic has a message")
            check(c["mismatches"] == [], f"{name}: no disagreement")
            check(c["notes"] == [], f"{name}: no notes ({c['notes']})")
            status = {e["key"]: e["status"] for e in c["effective"] if e["status"] != "added"}
            check(status == exp["status"][mpi], f"{name}: statuses {status} == {exp['status'][mpi]}")
            added = any(e["status"] == "added" for e in c["effective"])
            check(added == exp["added"][mpi], f"{name}: keys added by the MPI: {added}")
            if name == "MPI_File_open":
                check(c["filename"].endswith("/codes.dat"), "MPI_File_open: the filename")
    seen = {s for c in report["calls"] for s in (e["status"] for e in c["effective"])}
    check(seen == STATUSES, f"every status seen in the job: {sorted(seen)}")
    # Every code but too-long-for-target (see long()): an MPI's MPI_Info_set refuses what is too
    # long for it, so that one needs a second target.
    codes = {d["code"] for c in report["calls"] for d in c["diagnostics"]}
    check(codes == CODES - {"too-long-for-target"}, f"every other code seen in the job: {sorted(codes)}")
    text = open(stderr).read()
    check("passed different hints" not in text, "nothing printed about disagreement")
    check(re.search(r"^mpi-info hintcheck: 8 checked calls on rank 0, (\d+) diagnostics \((\d+) on all %d processes\), 0 hints" % np, text, re.M) is not None,
          "the summary at MPI_Finalize on standard error")


def disagree(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    odd = [r for r in range(np) if r % 2]
    even = [r for r in range(np) if not r % 2]
    last = np - 1
    opens = calls_named(report, "MPI_File_open")
    if check(len(opens) == 1, "one MPI_File_open"):
        want = [{"key": "cb_nodes", "values": [{"value": "1", "ranks": even}, {"value": "2", "ranks": odd}]},
                {"key": "access_style", "values": [{"value": None, "ranks": list(range(last))}, {"value": "read_once", "ranks": [last]}]}]
        check(opens[0]["mismatches"] == want, f"MPI_File_open mismatches {opens[0]['mismatches']}")
    dups = calls_named(report, "MPI_Comm_dup_with_info")
    if check(len(dups) == 1, "one MPI_Comm_dup_with_info"):
        want = [{"key": "mpi_assert_no_any_tag", "values": [{"value": "true", "ranks": [0]}, {"value": None, "ranks": list(range(1, np))}]}]
        check(dups[0]["mismatches"] == want, f"MPI_Comm_dup_with_info mismatches {dups[0]['mismatches']}")
    text = open(stderr).read()
    check(text.count("the processes passed different hints") == 2, "each disagreement printed once (by the lowest rank)")
    def ranks(rs):
        return ("ranks " if len(rs) > 1 else "rank ") + ",".join(map(str, rs))
    check(f'  cb_nodes: "1" on {ranks(even)}; "2" on {ranks(odd)}\n' in text, "the cb_nodes disagreement printed with values and ranks")
    check(f'  access_style: (not passed) on {ranks(list(range(last)))}; "read_once" on rank {last}\n' in text,
          "the access_style disagreement printed with values and ranks")
    check(re.search(r"^mpi-info hintcheck: 2 checked calls on rank 0, .* 3 hints on which processes disagreed", text, re.M) is not None,
          "the summary")


def long(mpi, np, path, stderr):
    """hintjob long with MPI_INFO_HINTCHECK_TARGETS=mpich,openmpi: a 40-character key."""
    report = load(path)
    if report is None or not schema(report):
        return
    check(report["target"] == "mpich,openmpi", "MPI_INFO_HINTCHECK_TARGETS gives the targets")
    key = "romio_this_key_is_forty_characters_long_"
    if check(len(report["calls"]) == 1, "one call"):
        got = [(d["key"], d["code"]) for d in report["calls"][0]["diagnostics"]]
        check(got == [(key, "unknown-key"), (key, "too-long-for-target")], f"the long key's diagnostics {got}")
        check("openmpi" in report["calls"][0]["diagnostics"][-1]["message"], "too long for openmpi")


def repeat(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    opens = calls_named(report, "MPI_File_open")
    if check(len(opens) == 2, "two entries: one per file"):
        check([c["count"] for c in opens] == [3, 1], f"counts {[c['count'] for c in opens]}")
        check([c["filename"].rsplit("/", 1)[-1] for c in opens] == ["repeat1.dat", "repeat2.dat"], "file names")
        strip = lambda c: {k: v for k, v in c.items() if k not in ("count", "filename")}
        check(strip(opens[0]) == strip(opens[1]), "the same findings for both files")
        check([d["code"] for d in opens[0]["diagnostics"]] == ["unit-suffix"], "cb_buffer_size=16M: unit-suffix")
    check(report["checked_calls"] == 4 and report["findings"] == 4, "4 checked calls, 4 findings")


def windows(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    names = ["MPI_Win_create", "MPI_Win_allocate_shared", "MPI_Win_create_dynamic"]
    check([c["call"] for c in report["calls"]] == names, f"one entry per call: {[c['call'] for c in report['calls']]}")
    for c in report["calls"]:
        check(c["comm_size"] == np and c["count"] == 1, f"{c['call']}: size and count")
        check(c["diagnostics"] == [] and c["mismatches"] == [] and c["notes"] == [], f"{c['call']}: nothing found")
        status = {e["key"]: e["status"] for e in c["effective"] if e["status"] != "added"}
        check(status == {"no_locks": "kept"}, f"{c['call']}: no_locks kept ({status})")


def threads(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    dups = calls_named(report, "MPI_Comm_dup_with_info")
    if check(len(dups) == 1, "one entry for the 40 equal MPI_Comm_dup_with_info"):
        check(dups[0]["count"] == 40, f"count {dups[0]['count']}")
        check(("mpi_assert_no_any_sourc", "unknown-key") in [(d["key"], d["code"]) for d in dups[0]["diagnostics"]], "the unknown key found")
        check(dups[0]["mismatches"] == [] and dups[0]["notes"] == [], "no disagreement, no notes")
    check(len(calls_named(report, "MPI_File_open")) == 1, "the file opened meanwhile")
    check(report["checked_calls"] == 41, f"41 checked calls ({report['checked_calls']})")


def hang(mpi, np, path, stderr):
    """romio_no_indep_rw on the last rank only: MPICH hangs in MPI_File_open, the job is killed."""
    text = open(stderr).read()
    check("the processes passed different hints" in text and "romio_no_indep_rw" in text,
          "the disagreement printed before the job hung")
    report = load(path)
    if report is None or not schema(report):
        return
    check(report["finalized"] is False, "the report of a job that died says so")
    if check(len(report["calls"]) == 1, "the call that hung is in the report"):
        c = report["calls"][0]
        check([m["key"] for m in c["mismatches"]] == ["romio_no_indep_rw"], "with its disagreement")
        check(any("did not return" in n for n in c["notes"]), "and a note that it was written before the call returned")


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "schema" and len(sys.argv) == 3:
        report = load(sys.argv[2])
        if report is not None:
            schema(report)
    elif mode in ("codes", "disagree", "long", "repeat", "threads", "windows") and len(sys.argv) == 6:
        {"codes": codes, "disagree": disagree, "long": long, "repeat": repeat, "threads": threads, "windows": windows}[mode](sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    elif mode == "hang" and len(sys.argv) == 6:
        hang(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    else:
        print(__doc__)
        check(False, "usage")
    print(f"check_report: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
