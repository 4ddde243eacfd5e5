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
    check_report.py many MPI NP REPORT STDERR N        N files opened with the same hints: one entry
    check_report.py die MPI NP REPORT STDERR N         a job killed a while after N equal calls
    check_report.py longkey MPI NP REPORT STDERR       a 255-character key cut by the MPI: noted
    check_report.py controls MPI NP REPORT STDERR      ESC, BEL, newlines, non-UTF-8 bytes: escaped
    check_report.py fail MPI NP REPORT STDERR          a failed MPI_File_open: its note
    check_report.py redisagree MPI NP REPORT STDERR    one disagreeing key in 3 calls
    check_report.py targets MPI NP REPORT STDERR       an unknown name in MPI_INFO_HINTCHECK_TARGETS
    check_report.py fork MPI NP REPORT STDERR          a child made with fork while files are opened
    check_report.py refused STDERR PATH                the one message of a report path refused
    check_report.py stack LIB MPI NP MODE REPORT STDERR TRUTH
                                                       a job of stackjob.c (LIB hdf5 or pnetcdf),
                                                       checked against what the layers report (TRUTH)

MPI is mpich or openmpi, NP the number of processes. Every report is first validated against
hintcheck/report.schema.json (python3-jsonschema), the schema the report's Rust types make.
Prints each failed check and ends with "check_report: N passed, M failed"; exits non-zero if a
check failed.
"""

import json
import os
import re
import sys

import jsonschema

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report.schema.json")
with open(SCHEMA_PATH) as _f:
    SCHEMA = json.load(_f)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

CODES = {"unknown-key", "bad-value", "unit-suffix", "out-of-range", "not-read-by-target",
         "too-long-for-target", "conflict", "unusual-spelling"}
STATUSES = {"kept", "changed", "dropped", "added", "misread"}
CALLS = {"MPI_File_open", "MPI_File_set_info", "MPI_File_set_view", "MPI_Win_create",
         "MPI_Win_allocate", "MPI_Win_allocate_shared", "MPI_Win_create_dynamic",
         "MPI_Win_set_info", "MPI_Comm_set_info", "MPI_Comm_dup_with_info",
         "MPI_Comm_split_type", "MPI_Comm_spawn", "MPI_Comm_spawn_multiple", "MPI_Session_init",
         "ncmpi_create", "ncmpi_open", "H5Pset_fapl_mpio"}
# The calls that name a file: always (their own argument), or when it was opened with MPI_File_open.
NAMED = {"MPI_File_open", "ncmpi_create", "ncmpi_open"}
MAY_NAME = {"MPI_File_set_view", "MPI_File_set_info"}
ORIGINS = {"program", "ROMIO_HINTS", "PNETCDF_HINTS", "MPICH_MPIIO_HINTS", "pnetcdf", "hdf5", "implementation"}
VARIABLES = {"ROMIO_HINTS", "PNETCDF_HINTS", "MPICH_MPIIO_HINTS"}
TEXT_CODES = CODES | {"malformed-line", "duplicate-key", "truncated-input"}

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
           "stack": lambda x: isinstance(x, list) and len(x) >= 1,
           "environment": lambda x: isinstance(x, list),
           "calls": lambda x: isinstance(x, list)}
    for field, test in top.items():
        ok &= check(field in report and test(report[field]), f"top-level {field!r} present and well typed")
    if not ok:
        return False
    bad = []
    for i, l in enumerate(report["stack"]):
        if not (isinstance(l, dict) and l.get("layer") in ("mpi", "pnetcdf", "hdf5")
                and all(l.get(f) is None or is_str(l.get(f)) for f in ("name", "version", "target", "file"))
                and set(l) == {"layer", "name", "version", "target", "file"}):
            bad.append(f"stack[{i}] = {l!r}")
    if report["stack"] and report["stack"][0].get("layer") != "mpi":
        bad.append("the stack does not begin with the MPI")
    for i, e in enumerate(report["environment"]):
        good = isinstance(e, dict) and e.get("variable") in VARIABLES and e.get("read_by") in (None, "mpi", "pnetcdf", "hdf5") \
            and (e.get("target") is None or is_str(e.get("target"))) and is_int(e.get("counted_findings")) \
            and isinstance(e.get("findings"), list) and isinstance(e.get("notes"), list)
        for f in e.get("findings", []) if good else []:
            good &= isinstance(f, dict) and is_int(f.get("line")) and is_int(f.get("column")) and f.get("code") in TEXT_CODES \
                and f.get("severity") in ("error", "warning", "note") and is_str(f.get("message"))
        if good:
            good = e["counted_findings"] == len([f for f in e["findings"] if f["severity"] != "note"])
            good &= (e["read_by"] is None) == (e["target"] is None) and (e["read_by"] is not None or e["findings"] == [])
        if not good:
            bad.append(f"environment[{i}] = {e!r}")

    def source_ok(s):
        good = isinstance(s, dict) and s.get("from") in ORIGINS and set(s) <= {"from", "file", "line", "column", "overridden"}
        for o in s.get("overridden", []) if good else []:
            good &= isinstance(o, dict) and o.get("from") in ORIGINS and is_str(o.get("value")) and is_str(o.get("why")) and o["why"] != ""
        return good
    for i, c in enumerate(report["calls"]):
        where = f"calls[{i}]"
        if not isinstance(c, dict):
            bad.append(f"{where} is not an object")
            continue
        for field, test in {"call": lambda x: x in CALLS, "count": lambda x: is_int(x) and x >= 1,
                            "comm_size": lambda x: is_int(x) and x >= 1, "target": is_str,
                            "caller": lambda x: x in (None, "pnetcdf", "hdf5"),
                            "through": lambda x: x in (None, "ncmpi_create", "ncmpi_open", "H5Pset_fapl_mpio"),
                            "counted_findings": lambda x: is_int(x) and x >= 0,
                            "counted_mismatches": lambda x: is_int(x) and x >= 0,
                            "hints": list, "diagnostics": list, "mismatches": list,
                            "effective": list, "notes": list}.items():
            value = c.get(field)
            good = test(value) if not isinstance(test, type) else isinstance(value, test)
            if not good:
                bad.append(f"{where}.{field} = {value!r}")
        if c.get("call") in NAMED or (c.get("call") in MAY_NAME and "filenames" in c):
            names, others = c.get("filenames"), c.get("calls_on_other_files")
            if not (isinstance(names, list) and 1 <= len(names) <= 8 and all(map(is_str, names))
                    and len(set(names)) == len(names) and is_int(others) and others >= 0
                    and len(names) + others <= c.get("count", 0)):
                bad.append(f"{where}: {c.get('call')} without its file names: {names!r}, {others!r}")
        elif "filenames" in c or "calls_on_other_files" in c:
            bad.append(f"{where}: file names on a call that names no file")
        for h in c.get("hints", []):
            if not (isinstance(h, dict) and is_str(h.get("key")) and is_str(h.get("value")) and source_ok(h.get("source"))):
                bad.append(f"{where}.hints: {h!r}")
        for d in c.get("diagnostics", []):
            if not (isinstance(d, dict) and is_str(d.get("key")) and is_str(d.get("value"))
                    and d.get("code") in CODES and is_str(d.get("message"))
                    and ("suggestion" not in d or is_str(d["suggestion"]))
                    and d.get("severity") in ("error", "warning", "note")
                    and set(d) <= {"key", "value", "code", "severity", "message", "suggestion"}):
                bad.append(f"{where}.diagnostics: {d!r}")
        for m in c.get("mismatches", []):
            good = isinstance(m, dict) and is_str(m.get("key")) and isinstance(m.get("values"), list) and len(m["values"]) >= 2
            for g in m.get("values", []) if good else []:
                good &= isinstance(g, dict) and (g.get("value") is None or is_str(g.get("value"))) \
                    and isinstance(g.get("ranks"), list) and len(g["ranks"]) >= 1 and all(map(is_int, g["ranks"]))
            if not good:
                bad.append(f"{where}.mismatches: {m!r}")
        for e in c.get("effective", []):
            good = isinstance(e, dict) and is_str(e.get("key")) and e.get("status") in STATUSES and source_ok(e.get("source"))
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
    """The report, if it is valid JSON and valid against the schema."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{path} is valid JSON ({e})")
        return None
    check(True, f"{path} is valid JSON")
    errors = sorted(VALIDATOR.iter_errors(report), key=lambda e: list(e.absolute_path))
    for e in errors[:5]:
        print(f"  report.schema.json: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    if not check(not errors, f"{path} is valid against report.schema.json ({len(errors)} errors)"):
        return None
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
                      ("romio_no_indep_rw", "conflict", None), ("stripe_width", "not-read-by-target", "striping_factor"),
                      ("stripe_width", "conflict", None)],
            "openmpi": [("cb_buffer_size", "unit-suffix", "16777216"), ("striping_factr", "unknown-key", "striping_factor"),
                        ("romio_cb_write", "not-read-by-target", None),
                        # Open MPI 4.1.4's Lustre driver reads stripe_width; striping_factor from 4.1.6.
                        ("striping_factor", "not-read-by-target", "stripe_width"),
                        ("cb_config_list", "not-read-by-target", None), ("romio_cb_read", "not-read-by-target", None),
                        ("romio_no_indep_rw", "not-read-by-target", None), ("stripe_width", "conflict", None)]},
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
        # MPICH takes no_locks and same_size but no code of either device uses them; same_size is
        # read by both devices, with outcomes of their own.
        "diagnostics": {"mpich": [("no_locks", "not-read-by-target", None), ("no_lock", "unknown-key", "no_locks"),
                                  ("same_size", "not-read-by-target", None), ("same_size", "bad-value", None),
                                  ("same_size", "bad-value", None)],
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
        # MPICH stores mpi_assert_allow_overtaking without using it, and reads "yes" with atoi, as
        # false; Open MPI 4.1.4 reads "yes" as true (a note: other MPIs may not).
        "diagnostics": {"mpich": [("mpi_assert_allow_overtaking", "not-read-by-target", None),
                                  ("mpi_assert_allow_overtaking", "bad-value", "true"),
                                  ("mpi_assert_no_any_sourc", "unknown-key", "mpi_assert_no_any_source")],
                        "openmpi": [("mpi_assert_no_any_tag", "not-read-by-target", None),
                                    ("mpi_assert_allow_overtaking", "unusual-spelling", "true"),
                                    ("mpi_assert_no_any_sourc", "unknown-key", "mpi_assert_no_any_source")]},
        "status": {"mpich": {"mpi_assert_no_any_tag": "kept", "mpi_assert_allow_overtaking": "changed", "mpi_assert_no_any_sourc": "dropped"},
                   "openmpi": {"mpi_assert_no_any_tag": "kept", "mpi_assert_allow_overtaking": "changed", "mpi_assert_no_any_sourc": "kept"}},
        "added": {"mpich": True, "openmpi": True},
    },
    "MPI_Comm_set_info": {
        "diagnostics": {"mpich": [("mpi_assert_allow_overtaking", "not-read-by-target", None)], "openmpi": []},
        "status": {"mpich": {"mpi_assert_allow_overtaking": "kept"}, "openmpi": {"mpi_assert_allow_overtaking": "kept"}},
        "added": {"mpich": True, "openmpi": True},
    },
}
# MPI_Comm_split_type gets the hints of MPI_Comm_dup_with_info.
CODES_EXPECTED["MPI_Comm_split_type"] = CODES_EXPECTED["MPI_Comm_dup_with_info"]

def common(report, mpi, np):
    # The running MPI at its own release (MPICH 4.0.2 is mpich@4.0.2), named in the report.
    release = report.get("implementation_version") or ""
    check(report["target"] == f"{mpi}@{release}" and re.fullmatch(r"\d+\.\d+(\.\d+)?", release) is not None,
          f"target is {mpi} at its release {release!r} (got {report['target']!r})")
    check(report["world_size"] == np and report["rank"] == 0, "rank 0 of NP processes")
    check(report["finalized"] is True, "finalized after MPI_Finalize")
    check(report["notes"] == [], f"no notes at the top ({report['notes']})")
    total = sum(c["count"] for c in report["calls"])
    check(report["checked_calls"] == total, f"checked_calls {report['checked_calls']} = sum of counts {total}")
    totals(report)


def totals(report):
    """The totals are the entries' counted findings and disagreements (and the environment's)."""
    env = sum(e["counted_findings"] for e in report["environment"])
    counted = sum(c["counted_findings"] for c in report["calls"]) + env
    check(report["findings"] == counted, f"findings total {report['findings']} = {counted} (the entries' and the environment's)")
    check(report["mismatches"] == sum(c["counted_mismatches"] for c in report["calls"]), "mismatches total")


def once_per_file(report):
    """Counted as docs/hintcheck.md says, for a job of the MPI calls alone (no library, no
    environment): each error or warning and each disagreement once per file (its key, value and
    code; its key and values), once per call on no named file; notes never."""
    ids = lambda c: {(d["key"], d["value"], d["code"]) for d in c["diagnostics"] if d["severity"] != "note"}
    mids = lambda c: {(m["key"], json.dumps(m["values"])) for m in c["mismatches"]}
    per_file, expect_f, expect_m = {}, 0, 0
    for c in report["calls"]:
        if "filenames" in c and c["calls_on_other_files"] == 0:
            for name in c["filenames"]:
                f, m = per_file.setdefault(name, (set(), set()))
                f |= ids(c)
                m |= mids(c)
        elif "filenames" not in c:
            expect_f += len(ids(c)) * c["count"]
            expect_m += len(mids(c)) * c["count"]
        elif ids(c) or mids(c):
            return check(False, "once_per_file: an entry with findings on more files than it lists")
    expect_f += sum(len(f) for f, _ in per_file.values())
    expect_m += sum(len(m) for _, m in per_file.values())
    check((report["findings"], report["mismatches"]) == (expect_f, expect_m),
          f"counted once per file: findings and mismatches {(report['findings'], report['mismatches'])} == {(expect_f, expect_m)}")


def environment_of_job(report):
    """The environment entries of the job's own texts: ROMIO's /etc/romio-hints, which ROMIO
    reads when ROMIO_HINTS is not set, belongs to the machine."""
    return [e for e in report["environment"] if not (e["variable"] == "ROMIO_HINTS" and e.get("file") == "/etc/romio-hints")]


def mpi_only(report, mpi):
    """hintjob.c is an MPI program: the stack is the MPI alone, and run.sh sets no hint
    variable."""
    name = {"mpich": "MPICH", "openmpi": "Open MPI"}[mpi]
    want = [{"layer": "mpi", "name": name, "version": report["implementation_version"], "target": report["target"]}]
    got = [{k: v for k, v in l.items() if k != "file"} for l in report["stack"]]
    check(got == want, f"the stack is the MPI alone: {got}")
    check(re.search(r"/libmpi[a-z]*\.so[.0-9]*$", report["stack"][0]["file"] or "") is not None, f"the MPI's library: {report['stack'][0]['file']}")
    check(environment_of_job(report) == [], "no hint text in the environment")
    check(all(c["caller"] is None and c["through"] is None for c in report["calls"]), "every call made by the program")
    once_per_file(report)


def codes(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    mpi_only(report, mpi)
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
                check(len(c["filenames"]) == 1 and c["filenames"][0].endswith("/codes.dat"), "MPI_File_open: the filename")
    seen = {s for c in report["calls"] for s in (e["status"] for e in c["effective"])}
    check(seen == STATUSES, f"every status seen in the job: {sorted(seen)}")
    # Every code but too-long-for-target (see long()): an MPI's MPI_Info_set refuses what is too
    # long for it, so that one needs a second target. MPICH reads no hint of the job in an
    # unusual spelling; Open MPI 4.1.4 does not read striping_factor, the out-of-range one.
    codes = {d["code"] for c in report["calls"] for d in c["diagnostics"]}
    unseen = {"mpich": {"too-long-for-target", "unusual-spelling"}, "openmpi": {"too-long-for-target", "out-of-range"}}[mpi]
    check(codes == CODES - unseen, f"every other code seen in the job: {sorted(codes)}")
    severities = {(d["code"], d["severity"]) for c in report["calls"] for d in c["diagnostics"]}
    check(all(s == ("note" if code == "unusual-spelling" else s) for code, s in severities), "an unusual spelling is a note")
    text = open(stderr).read()
    check("passed different hints" not in text, "nothing printed about disagreement")
    check(re.search(r"^mpi-info hintcheck: 8 checked calls on rank 0, (\d+) diagnostics \((\d+) on all %d processes\), 0 hints" % np, text, re.M) is not None,
          "the summary at MPI_Finalize on standard error")


def disagree(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    mpi_only(report, mpi)
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
    check(re.search(r"^mpi-info hintcheck: 2 checked calls on rank 0, .* 3 hints on which processes disagreed in 2 calls \(report: ", text, re.M) is not None,
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
    if check(len(opens) == 1, "one entry for the two files opened with the same hints"):
        check(opens[0]["count"] == 4, f"count {opens[0]['count']}")
        check([f.rsplit("/", 1)[-1] for f in opens[0]["filenames"]] == ["repeat1.dat", "repeat2.dat"], "file names, each once")
        check(opens[0]["calls_on_other_files"] == 0, "no other file")
        check([d["code"] for d in opens[0]["diagnostics"]] == ["unit-suffix"], "cb_buffer_size=16M: unit-suffix")
    # The finding once on each of the two files.
    check(report["checked_calls"] == 4 and report["findings"] == 2, "4 checked calls, 2 findings (one a file)")
    mpi_only(report, mpi)


def windows(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    mpi_only(report, mpi)
    names = ["MPI_Win_create", "MPI_Win_allocate_shared", "MPI_Win_create_dynamic"]
    check([c["call"] for c in report["calls"]] == names, f"one entry per call: {[c['call'] for c in report['calls']]}")
    for c in report["calls"]:
        check(c["comm_size"] == np and c["count"] == 1, f"{c['call']}: size and count")
        # MPICH takes no_locks but no code of its devices uses it.
        want = [("no_locks", "not-read-by-target", "warning")] if mpi == "mpich" else []
        got = [(d["key"], d["code"], d["severity"]) for d in c["diagnostics"]]
        check(got == want and c["mismatches"] == [] and c["notes"] == [], f"{c['call']}: {got} == {want}")
        status = {e["key"]: e["status"] for e in c["effective"] if e["status"] != "added"}
        check(status == {"no_locks": "kept"}, f"{c['call']}: no_locks kept ({status})")


def threads(mpi, np, path, stderr):
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    mpi_only(report, mpi)
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


def many(mpi, np, path, stderr, n):
    """hintjob many: n files opened with the same hints are one entry; the report stays small."""
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    mpi_only(report, mpi)
    if check(len(report["calls"]) == 1, f"one entry for {n} files ({len(report['calls'])})"):
        c = report["calls"][0]
        check(c["count"] == n, f"count {c['count']} == {n}")
        want = [f"many{i}.dat" for i in range(min(n, 8))]
        check([f.rsplit("/", 1)[-1] for f in c["filenames"]] == want, f"the first 8 file names {c['filenames']}")
        check(c["calls_on_other_files"] == max(n - 8, 0), f"the others counted: {c['calls_on_other_files']}")
    check(os.path.getsize(path) < 16384, f"the report is small: {os.path.getsize(path)} bytes")


def die(mpi, np, path, stderr, n):
    """hintjob die: n equal calls, then the job sleeps 3 s and is killed: the report, rewritten
    at least once a second while counts change, has every call."""
    report = load(path)
    if report is None or not schema(report):
        return
    check(report["finalized"] is False, "the report of a job that died says so")
    check(report["checked_calls"] == n, f"checked_calls {report['checked_calls']} == {n}")
    if check(len(report["calls"]) == 1, "one entry"):
        check(report["calls"][0]["count"] == n, f"count {report['calls'][0]['count']} == {n}")


def longkey(mpi, np, path, stderr):
    """hintjob longkey on MPICH: MPI_Info_get_nthkey gives the 255-character key cut to 254;
    the pair cannot be read, and a note says so, with the key as the MPI gave it."""
    report = load(path)
    if report is None or not schema(report):
        return
    cut = "romio_" + "k" * 248
    if check(len(report["calls"]) == 1, "one call"):
        c = report["calls"][0]
        check([h["key"] for h in c["hints"]] == ["cb_nodes"], f"the other pair is kept: {[h['key'][:20] for h in c['hints']]}")
        notes = [n for n in c["notes"] if f"'{cut}'" in n]
        check(len(notes) == 1, f"a note names the key as the MPI gave it (254 characters): {c['notes']}")
        check(any("254 characters" in n and "MPI_MAX_INFO_KEY is 255" in n and "cut" in n for n in notes),
              "the note says the MPI may have cut the key")


ESC_BYTES = ("\x1b", "\x07")


def controls(mpi, np, path, stderr):
    """hintjob controls: keys, values and file names with ESC, BEL, a newline and the byte 0xff.
    The report keeps them exactly (0xff as \\udcff); standard error shows them escaped."""
    report = load(path)
    if report is None or not schema(report):
        return
    key = "cb_\x1b[31mkey\x07\nx\udcff"
    if check(len(report["calls"]) == 1, "one call"):
        c = report["calls"][0]
        check(os.fsencode(c["filenames"][0]).endswith(b"/ctl\x1b[31m\x07\n\xff.dat"), f"the file name, bytes exactly: {c['filenames']!r}")
        hints = {h["key"]: h["value"] for h in c["hints"]}
        check(hints.get(key) == "v\x1b\x07\nv\udcff", f"the key and value, exactly: {hints!r}")
        check(os.fsencode(key) == b"cb_\x1b[31mkey\x07\nx\xff", "the lone surrogate gives the byte back")
        if np > 1:
            check([m["key"] for m in c["mismatches"]] == ["cb_nodes"], "the disagreement")
    with open(stderr, "rb") as f:
        raw = f.read()
    check(b"\x1b" not in raw and b"\x07" not in raw, "no ESC or BEL reaches standard error")
    text = raw.decode("utf-8", "replace")
    check("cb_\\u{1b}[31mkey\\u{7}\\nx\\xff" in text, "the key escaped in the summary")
    check("v\\u{1b}\\u{7}\\nv\\xff" in text, "the value escaped in the summary")
    if np > 1:
        check('ctl\\u{1b}[31m\\u{7}\\n\\xff.dat")' in text, "the file name escaped in the disagreement")
        check('  cb_nodes: "1\\u{1b}\\u{7}\\n" on rank' in text, "the values escaped in the disagreement")
    # Every line on standard error is the tool's (a newline inside a key would start a line of
    # its own).
    lines = [l for l in text.split("\n") if l]
    check(all(l.startswith("mpi-info hintcheck:") or l.startswith("  ") for l in lines),
          f"every line on standard error is a line of the tool: {[l for l in lines if not (l.startswith('mpi-info hintcheck:') or l.startswith('  '))][:3]}")


def fail(mpi, np, path, stderr):
    """hintjob fail: MPI_File_open fails; its one note says so, and blames nothing else."""
    report = load(path)
    if report is None or not schema(report):
        return
    if check(len(report["calls"]) == 1, "one call"):
        c = report["calls"][0]
        check(len(c["notes"]) == 1 and re.fullmatch(r"the call failed \(error code \d+\): nothing is reported", c["notes"][0]) is not None,
              f"the note of a failed call: {c['notes']}")
        check(c["effective"] == [], "nothing reported")


def redisagree(mpi, np, path, stderr):
    """hintjob redisagree: one key on which the processes disagree, in 3 equal calls."""
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    mpi_only(report, mpi)
    if check(len(report["calls"]) == 1, "one entry"):
        check(report["calls"][0]["count"] == 3, "count 3")
    text = open(stderr).read()
    check(re.search(r"^mpi-info hintcheck: 3 checked calls on rank 0, \d+ diagnostics? \(\d+ on all \d+ processes\), 1 hint on which processes disagreed in 3 calls \(report: ", text, re.M) is not None,
          "the summary counts one key, in 3 calls")


def targets(mpi, np, path, stderr):
    """hintjob long with MPI_INFO_HINTCHECK_TARGETS=mpich,no<ESC>such,openmpi: the unknown name
    is noted, escaped, and ignored; the others are kept."""
    report = load(path)
    if report is None or not schema(report):
        return
    check(report["target"] == "mpich,openmpi", f"the known targets kept: {report['target']!r}")
    check(report["notes"] == ["MPI_INFO_HINTCHECK_TARGETS: 'no\\u{1b}such' is not a target the checker knows: it is ignored"],
          f"the unknown name noted, escaped: {report['notes']}")
    if check(len(report["calls"]) == 1, "one call"):
        got = [d["code"] for d in report["calls"][0]["diagnostics"]]
        check("too-long-for-target" in got, f"openmpi is still a target: {got}")


def fork(mpi, np, path, stderr):
    """hintjob fork: a child made with fork while the flusher runs changes nothing."""
    report = load(path)
    if report is None or not schema(report):
        return
    common(report, mpi, np)
    mpi_only(report, mpi)
    check(report["checked_calls"] == 50 and len(report["calls"]) == 1, "the 50 opens, one entry")


# What stackjob.c gives its library in each mode (rank 0's; "differ": the odd ranks another
# value), and the hint texts run.sh sets.
STACK_HINTS = {
    "hdf5": {"clean": [("cb_nodes", "1"), ("cb_buffer_size", "16777216")], "misspelled": [("cb_nodse", "1")],
             "suffix": [("cb_buffer_size", "16M")], "differ": [("access_style", "write_mostly")],
             "romio": [("cb_nodes", "1"), ("cb_buffer_size", "16777216")]},
    "pnetcdf": {"clean": [("nc_header_align_size", "512"), ("cb_nodes", "1")], "misspelled": [("nc_var_algn_size", "512")],
                "suffix": [("nc_var_align_size", "1m")], "differ": [("nc_header_align_size", "512")],
                "romio": [("nc_header_align_size", "512"), ("cb_nodes", "1")],
                "env": [("nc_header_align_size", "512"), ("cb_nodes", "1")]},
}
ROMIO_FILE = "cb_nodes 2\nromio_cb_write enable\n"
PNETCDF_HINTS = "cb_nodes=2;nc_var_align_size=1m;nc_header_algn_size=1"
# The one error or warning of each mode, counted where the program gave it: (key, code,
# suggestion, severity), and the targets named in its message.
STACK_FINDING = {
    ("hdf5", "misspelled"): ("cb_nodse", "unknown-key", "cb_nodes", "warning"),
    ("hdf5", "suffix"): ("cb_buffer_size", "unit-suffix", "16777216", "error"),
    ("pnetcdf", "misspelled"): ("nc_var_algn_size", "unknown-key", "nc_var_align_size", "warning"),
    ("pnetcdf", "suffix"): ("nc_var_align_size", "unit-suffix", "1048576", "error"),
}


def stack(lib, mpi, np, mode, path, stderr, truth_path):
    """A job of stackjob.c: the stack found, where each hint came from, what was counted, and
    what the layers report (TRUTH: what the program itself read from PnetCDF's
    ncmpi_inq_file_info, or from MPI_File_get_info on HDF5's file handle)."""
    report = load(path)
    if report is None or not schema(report):
        return
    with open(truth_path) as f:
        truth = dict(line.rstrip("\n").split("\t", 1) for line in f if "\t" in line)
    version = truth.pop("version", "")
    release = report.get("implementation_version") or ""
    check(report["target"] == f"{mpi}@{release}", f"target {report['target']!r}")
    check(report["world_size"] == np and report["finalized"] is True and report["notes"] == [], "rank 0 of NP, finalized, no notes")
    check(report["checked_calls"] == sum(c["count"] for c in report["calls"]), "checked_calls")
    totals(report)

    # The stack: the MPI, then the library, at the release it reports itself.
    name = {"mpich": "MPICH", "openmpi": "Open MPI"}[mpi]
    lib_release = re.match(r"[0-9.]+", version).group(0) if re.match(r"[0-9.]+", version) else None
    want = [{"layer": "mpi", "name": name, "version": release, "target": report["target"]},
            {"layer": lib, "name": {"hdf5": "HDF5", "pnetcdf": "PnetCDF"}[lib], "version": lib_release,
             "target": f"pnetcdf@{lib_release}" if lib == "pnetcdf" else None}]
    got = [{k: v for k, v in l.items() if k != "file"} for l in report["stack"]]
    check(got == want, f"the stack {got} == {want} (the library's version: {version!r})")
    lib_file = report["stack"][1]["file"] if len(report["stack"]) > 1 else ""
    check(re.search({"hdf5": r"/libhdf5_%s\.so" % mpi, "pnetcdf": r"/libpnetcdf\.so"}[lib], lib_file or "") is not None,
          f"the library's object: {lib_file}")

    calls = report["calls"]
    file = os.path.join(os.path.dirname(truth_path), f"{mode}.{'h5' if lib == 'hdf5' else 'nc'}")
    program = STACK_HINTS[lib][mode]
    entry = lambda name, **kw: [c for c in calls if c["call"] == name and all(c[k] == v for k, v in kw.items())]
    if lib == "hdf5":
        names = [c["call"] for c in calls]
        check(names == ["H5Pset_fapl_mpio", "MPI_File_open", "MPI_File_set_view"], f"the calls {names}")
        entry_call = entry("H5Pset_fapl_mpio")
        opens = entry("MPI_File_open", caller="hdf5", through="H5Pset_fapl_mpio")
        views = entry("MPI_File_set_view", caller="hdf5", through="H5Pset_fapl_mpio")
        if not check(len(entry_call) == 1 and len(opens) == 1 and len(views) == 1,
                     "H5Pset_fapl_mpio, then HDF5's MPI_File_open and MPI_File_set_view with its hints"):
            return
        entry_call, opened, views = entry_call[0], opens[0], views[0]
        check(entry_call["caller"] is None and entry_call["through"] is None and "filenames" not in entry_call,
              "H5Pset_fapl_mpio: called by the program, on no file")
        check(entry_call["effective"] == [] and any("HDF5 reports nothing" in n for n in entry_call["notes"]),
              "H5Pset_fapl_mpio: nothing reported, and a note says so")
        # HDF5 1.10.8 passes the program's pairs to the MPI as they are.
        check([(h["key"], h["value"], h["source"]) for h in opened["hints"]] == [(k, v, {"from": "program"}) for k, v in program],
              f"HDF5 gives the MPI the program's pairs: {opened['hints']}")
        # One collective write: HDF5 sets the view, then sets it back: one entry, counted once.
        check(views["count"] == 2 and views["counted_findings"] == 0 and views["counted_mismatches"] == 0,
              f"MPI_File_set_view: one entry of 2 calls, nothing counted again ({views['count']}, {views['counted_findings']}, {views['counted_mismatches']})")
        check(views["filenames"] == [file] and opened["filenames"] == [file], "the file named at the open and at set_view")
        layer_view = opened          # what the MPI reports of the file
    else:
        entry_call = entry("ncmpi_create")
        opens = entry("MPI_File_open", caller="pnetcdf", through="ncmpi_create")
        views = entry("MPI_File_set_view")
        if not check(len(entry_call) == 1 and len(opens) == 1, "ncmpi_create, and the MPI_File_open PnetCDF makes in it"):
            return
        entry_call, opened = entry_call[0], opens[0]
        check(len(calls) == 2 + len(views) and all(v["caller"] == "pnetcdf" and v["through"] is None and v["hints"] == [] for v in views),
              f"and only PnetCDF's MPI_File_set_view, with no hints: {[(c['call'], c['caller'], c['through']) for c in calls]}")
        check(entry_call["caller"] is None and entry_call["through"] is None and entry_call["filenames"] == [file],
              "ncmpi_create: called by the program, on its file")
        check(entry_call["target"] == f"pnetcdf@{lib_release},{report['target']}" and opened["target"] == entry_call["target"],
              f"checked for PnetCDF and the MPI: {entry_call['target']}, {opened['target']}")
        layer_view = entry_call      # what PnetCDF reports of the file
    check([(h["key"], h["value"], h["source"]) for h in entry_call["hints"]] == [(k, v, {"from": "program"}) for k, v in program],
          f"{entry_call['call']}: the program's pairs {entry_call['hints']}")

    # What the layer reports, exactly as it reports it.
    got = {e["key"]: e["effective"] for e in layer_view["effective"] if e["effective"] is not None}
    check(got == truth, f"{layer_view['call']}: the effective pairs are what the layer reports:\n    {got}\n    {truth}")
    eff = {e["key"]: e for e in layer_view["effective"]}

    # Findings: the mode's one error or warning, counted once, where the program gave it.
    finding = STACK_FINDING.get((lib, mode))
    counted = [(d["key"], d["code"], d.get("suggestion"), d["severity"]) for d in entry_call["diagnostics"] if d["severity"] != "note"]
    check(counted == ([finding] if finding else []), f"{entry_call['call']}: errors and warnings {counted}")
    check(entry_call["counted_findings"] == (1 if finding else 0), f"{entry_call['call']}: counted {entry_call['counted_findings']}")
    check(opened["counted_findings"] == 0, "the MPI_File_open the library made counts nothing again")
    if mode == "suffix" and lib == "pnetcdf":
        # PnetCDF's hint, passed down to Open MPI which does not read it: no warning for it.
        inner = [(d["key"], d["code"], d["severity"]) for d in opened["diagnostics"] if d["key"] == finding[0]]
        check(all(sev != "warning" for _, _, sev in inner) and (finding[0], finding[1], finding[3]) in inner,
              f"the hint passed down: for PnetCDF as at ncmpi_create, and no warning for the MPI: {inner}")
    if mode == "suffix":
        key = finding[0]
        message = [d["message"] for d in entry_call["diagnostics"] if d["code"] == "unit-suffix"]
        check(message and ("pnetcdf 1.12.3" if lib == "pnetcdf" else f"{mpi} {release}") in message[0], f"for the running release: {message}")
        # PnetCDF reads 1m as 1 and says so; the MPIs report 16M as given (misread).
        status = eff.get(key, {}).get("status")
        check(status == ("changed" if lib == "pnetcdf" else "misread"), f"{key}: {status}")
    if mode in ("clean", "romio"):
        check(report["findings"] == 0 and report["mismatches"] == 0, "a clean job: nothing counted")
    elif mode == "differ":
        value = dict(program)
        key = program[0][0]
        other = {"hdf5": "write_once", "pnetcdf": "1024"}[lib]
        odd, even = [r for r in range(np) if r % 2], [r for r in range(np) if not r % 2]
        want = [{"key": key, "values": [{"value": value[key], "ranks": even}, {"value": other, "ranks": odd}]}]
        check(opened["mismatches"] == want and opened["counted_mismatches"] == 1, f"the MPI_File_open: {opened['mismatches']}")
        check(entry_call["mismatches"] == [], f"{entry_call['call']} is not where the processes are compared")
        check(report["mismatches"] == 1 and report["findings"] == 0, "one disagreement counted, no finding")
        text = open(stderr).read()
        check(text.count("the processes passed different hints") == 1, "the disagreement printed once")
        calls_with = 3 if lib == "hdf5" else 1
        check(re.search(r"^mpi-info hintcheck: \d+ checked calls on rank 0, 0 diagnostics \(0 on all %d processes\), 1 hint on which processes disagreed in %d calls? \(report: " % (np, calls_with), text, re.M) is not None,
              "the summary: one hint")
    else:
        check(report["findings"] == (2 if mode == "env" else 1) and report["mismatches"] == 0, f"findings {report['findings']}")

    # The summary on standard error names the finding where it was counted, once.
    text = open(stderr).read()
    if finding:
        lines = [l for l in text.splitlines() if l.startswith("  ") and finding[1] in l]
        check(len(lines) == 1 and lines[0].startswith(f"  {entry_call['call']}: {finding[0]}="), f"the summary's line: {lines}")
        check(re.search(r"^mpi-info hintcheck: \d+ checked calls on rank 0, 1 diagnostic \(%d on all %d processes\)" % (np, np), text, re.M) is not None,
              "the summary counts the finding once on each process")

    # Sources and precedence.
    envs = {e["variable"]: e for e in report["environment"]}
    if mode == "romio":
        reads = mpi == "mpich"
        e = envs.get("ROMIO_HINTS")
        if check(e is not None and e["file"].endswith("/romio-hints") and e["findings"] == [], f"ROMIO_HINTS in the environment: {e}"):
            check(e["read_by"] == ("mpi" if reads else None) and e["target"] == (report["target"] if reads else None),
                  f"read by MPICH's ROMIO, not by Open MPI's OMPIO: {e['read_by']}, {e['target']}")
            check(reads or any("OMPIO" in n and "does not read ROMIO_HINTS" in n for n in e["notes"]), f"the note: {e['notes']}")
        cb = eff.get("cb_nodes", {})
        lost = cb.get("source", {}).get("overridden", [])
        check(cb.get("effective") == "1" and cb["source"]["from"] == "program", f"cb_nodes: the program's value: {cb}")
        if check(len(lost) == 1 and lost[0]["from"] == "ROMIO_HINTS" and lost[0]["value"] == "2" and lost[0]["line"] == 1
                 and lost[0]["file"].endswith("/romio-hints"), f"the file's cb_nodes, line 1, lost: {lost}"):
            rule = "src/mpi/romio/adio/common/system_hints.c:188-191" if reads else "does not read ROMIO_HINTS"
            check(rule in lost[0]["why"], f"and why: {lost[0]['why']}")
        cw = eff.get("romio_cb_write")
        if reads:
            check(cw is not None and cw["status"] == "added" and cw["source"] == {"from": "ROMIO_HINTS", "file": e["file"], "line": 2, "column": 1},
                  f"romio_cb_write from the file's line 2: {cw}")
        else:
            check(cw is None, "romio_cb_write: not read, not reported")
    elif mode == "env":
        e = envs.get("PNETCDF_HINTS")
        if check(e is not None and e["value"] == PNETCDF_HINTS and e["read_by"] == "pnetcdf", f"PNETCDF_HINTS read by PnetCDF: {e}"):
            got = [(f["key"], f["code"], f["column"], f["severity"]) for f in e["findings"] if f["severity"] != "note"]
            check(got == [("nc_var_align_size", "unit-suffix", 12, "error"), ("nc_header_algn_size", "unknown-key", 33, "warning")],
                  f"its findings, by column: {got}")
            check(e["target"] == entry_call["target"] and e["counted_findings"] == 2, "checked for PnetCDF and the MPI, counted")
        lines = [l for l in text.splitlines() if l.startswith("  PNETCDF_HINTS:1:")]
        check(len(lines) == 2, f"the summary names them at their columns: {lines}")
        cb = eff.get("cb_nodes", {})
        src = cb.get("source", {})
        check(cb.get("effective") == "2" and cb.get("status") == "changed" and src.get("from") == "PNETCDF_HINTS" and src.get("column") == 1,
              f"cb_nodes: PNETCDF_HINTS's 2 over the program's 1: {cb}")
        lost = src.get("overridden", [])
        check(len(lost) == 1 and lost[0]["from"] == "program" and lost[0]["value"] == "1" and "src/dispatchers/file.c:146-151 and 236" in lost[0]["why"],
              f"the program's value lost, by PnetCDF's rule: {lost}")
        check(eff.get("nc_var_align_size", {}).get("source", {}).get("from") == "PNETCDF_HINTS", "nc_var_align_size from PNETCDF_HINTS")
        srcs = {h["key"]: h["source"]["from"] for h in opened["hints"]}
        check(srcs == {"nc_header_align_size": "program", "cb_nodes": "PNETCDF_HINTS", "nc_var_align_size": "PNETCDF_HINTS",
                       "nc_header_algn_size": "PNETCDF_HINTS"}, f"the pairs the MPI was given, by source: {srcs}")
    else:
        check(environment_of_job(report) == [], "no hint text in the environment")
    if lib == "pnetcdf":
        # PnetCDF's own hints, which it adds (ncmpi_inq_file_info), are its own.
        added = {k for k, e in eff.items() if e["status"] == "added" and e["source"]["from"] == "pnetcdf"}
        check({"nc_record_align_size", "nc_header_read_chunk_size", "nc_in_place_swap", "nc_ibuf_size"} <= added,
              f"PnetCDF's defaults are PnetCDF's: {sorted(added)}")


def escaped(path):
    """A path as the tool prints it (mpi_info::hints::Escaped): control characters as Rust
    escapes them, each byte that is not UTF-8 as \\xNN."""
    out = []
    for ch in os.fsdecode(path):
        o = ord(ch)
        if 0xDC80 <= o <= 0xDCFF:
            out.append("\\x%02x" % (o - 0xDC00))
        elif o < 0x20 or 0x7F <= o <= 0x9F:
            out.append({"\t": "\\t", "\r": "\\r", "\n": "\\n"}.get(ch, "\\u{%x}" % o))
        else:
            out.append(ch)
    return "".join(out)


def refused(stderr, path):
    """A report path that is not a regular file: one message on standard error, naming the path
    (escaped) and saying the report needs a regular file."""
    with open(stderr, "rb") as f:
        lines = [l.decode("utf-8", "replace") for l in f.read().split(b"\n") if l.startswith(b"mpi-info hintcheck:")]
    if check(len(lines) == 1, f"one message on standard error ({lines})"):
        check(f" {escaped(os.fsencode(path))}: " in lines[0], f"the message names the path, escaped: {lines[0]!r}")
        check("the report needs a regular file" in lines[0], f"and says the report needs a regular file: {lines[0]!r}")


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
    elif mode in ("longkey", "controls", "fail", "redisagree", "targets", "fork") and len(sys.argv) == 6:
        {"longkey": longkey, "controls": controls, "fail": fail, "redisagree": redisagree, "targets": targets,
         "fork": fork}[mode](sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    elif mode == "refused" and len(sys.argv) == 4:
        refused(sys.argv[2], sys.argv[3])
    elif mode == "stack" and len(sys.argv) == 9:
        stack(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6], sys.argv[7], sys.argv[8])
    elif mode in ("many", "die") and len(sys.argv) == 7:
        {"many": many, "die": die}[mode](sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]))
    else:
        print(__doc__)
        check(False, "usage")
    print(f"check_report: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
