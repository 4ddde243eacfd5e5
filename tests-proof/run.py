#!/usr/bin/env python3
"""The proof of the hint vocabulary against the implementations installed (docs/hints.md, "Proof
against the real implementations"): for each job setup below whose MPI is installed, asks
hints-proof (the model, tests-proof/src/main.rs) for the cases, runs them with the probe
(tests-proof/probe.c) under mpirun, and compares what the implementation reported and did with
what the model says.

    run.py --model HINTS_PROOF --probe-mpich PROBE --probe-openmpi PROBE --probe-pnetcdf PROBE
           [--verbose] [--json FILE]

(tests-proof/run.sh builds them.) A probe path that is empty skips that implementation's setups
(said on standard output, counting nothing); the PnetCDF probe is Open MPI's built with PnetCDF.
Each job runs under `timeout` (JOB_SECONDS, default 60). The cases run together, but for those
the model says may fail, each in a job of its own; a case that kills its job anyway counts as a
failed call (one that hangs it until the timeout, as a hang), and the cases after it run in a
new job. Prints a line per
disagreement (every case with --verbose), the agreement table, the unprovable readers with their
sources, and last "proof: N passed, M failed" (a case passes when the implementation agrees with
the model, or when nothing it shows can tell; it fails when it disagrees). Exit status 0 when
nothing disagrees, 1 otherwise, 2 for a usage error.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

JOB_SECONDS = int(os.environ.get("JOB_SECONDS", "60"))
PROCS = 2

# The jobs: which implementation, target and release, the conditions (`only_under`) that hold in
# them, whether readers without a condition are proved there, and which probe object makes each
# kind of object. MPICH 4.0.2 (Debian) is ch4:ucx, with ROMIO's UFS driver for /tmp; Open MPI
# 4.1.4 opens files with OMPIO (fs/ufs) and makes windows with osc/rdma (MPI_Win_allocate;
# osc/pt2pt when asked for) and osc/sm (MPI_Win_allocate_shared), communicators with pml/ob1
# (ompi_info lists the components; the mca options pick them).
SETUPS = [
    {"name": "mpich", "mpi": "mpich", "target": "mpich@4.0.2", "under": ["ch4 device"], "plain": True,
     "objects": {"file": "file", "window": "window", "communicator": "comm"}, "mca": []},
    {"name": "openmpi", "mpi": "openmpi", "target": "openmpi@4.1.4", "under": ["osc/rdma", "pml/ob1"],
     "plain": True, "objects": {"file": "file", "window": "window", "communicator": "comm"},
     "mca": ["--mca", "io", "ompio", "--mca", "osc", "rdma", "--mca", "pml", "ob1",
             "--mca", "io_ompio_verbose_info_parsing", "1"]},
    {"name": "openmpi-pt2pt", "mpi": "openmpi", "target": "openmpi@4.1.4", "under": ["osc/pt2pt"],
     "plain": False, "objects": {"window": "window"}, "mca": ["--mca", "osc", "pt2pt", "--mca", "pml", "ob1"]},
    {"name": "openmpi-sm", "mpi": "openmpi", "target": "openmpi@4.1.4", "under": ["osc/sm"], "plain": False,
     "objects": {"window": "shared"}, "mca": ["--mca", "osc", "sm", "--mca", "pml", "ob1"]},
    {"name": "pnetcdf", "mpi": "openmpi", "probe": "pnetcdf", "target": "pnetcdf@1.12.3", "under": [], "plain": True,
     "objects": {"file": "nc"}, "mca": ["--mca", "io", "ompio"]},
]
# The implementation each setup proves, for the table.
IMPLEMENTATION = {"mpich": "MPICH 4.0.2", "openmpi": "Open MPI 4.1.4", "openmpi-pt2pt": "Open MPI 4.1.4",
                  "openmpi-sm": "Open MPI 4.1.4", "pnetcdf": "PnetCDF 1.12.3"}


def hexed(text):
    return text.encode("utf-8", "surrogateescape").hex() or "-"


def unhexed(text):
    return bytes.fromhex(text).decode("utf-8", "surrogateescape")


def shown(text):
    """A value for a line of output: quoted, control characters escaped."""
    if text is None:
        return "(not reported)"
    return json.dumps(text)


def mpirun(setup, probe, cases_file, workdir):
    if setup["mpi"] == "mpich":
        command = ["mpirun.mpich", "-np", str(PROCS)]
    else:
        command = ["mpirun.openmpi", "--oversubscribe", "-np", str(PROCS)] + setup["mca"]
    return ["timeout", str(JOB_SECONDS)] + command + [probe, cases_file, workdir]


def run_cases(setup, probe, lines, workdir):
    """Runs the cases (id, line) in as few jobs as possible: returns {id: result}, a result being
    {"fields": {...}, "messages": [...]} or {"killed": text}."""
    results = {}
    pending = list(lines)
    jobs = 0
    while pending:
        jobs += 1
        cases_file = os.path.join(workdir, "cases-%s-%d" % (setup["name"], jobs))
        with open(cases_file, "w") as out:
            for _, line in pending:
                out.write(line + "\n")
        job = subprocess.run(mpirun(setup, probe, cases_file, workdir), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, env=dict(os.environ), check=False)
        output = job.stdout.decode("utf-8", "replace").splitlines()
        current, messages, done = None, [], set()
        for text in output:
            words = text.split()
            if words[:1] == ["begin"] and len(words) == 2:
                current, messages = words[1], []
            elif words[:1] in (["case"], ["baseline"]) and len(words) >= 2 and words[1] == current:
                fields = {}
                for word in words[2:]:
                    name, _, value = word.partition("=")
                    fields.setdefault(name, value)
                results[current] = {"kind": words[0], "words": words[2:], "fields": fields, "messages": messages}
                done.add(current)
                current = None
            elif current is not None:
                messages.append(text)
        ids = [case_id for case_id, _ in pending]
        if all(i in done for i in ids):
            break
        if current is not None:
            # The case begun and not finished killed the job (or hung it until the timeout).
            why = "exit %d%s" % (job.returncode, " (timeout)" if job.returncode == 124 else "")
            results[current] = {"killed": why, "messages": messages, "hung": job.returncode == 124}
            last = ids.index(current)
        elif done:
            # Freeing the last object finished killed the job: its case stands, with a note.
            last = max(ids.index(i) for i in done)
            results[ids[last]]["teardown"] = "the job died freeing the object (exit %d)" % job.returncode
        else:
            for case_id in ids:
                results[case_id] = {"killed": "the job ended (exit %d) before a case began: %s"
                                    % (job.returncode, " | ".join(output[-5:]))}
            break
        pending = [p for p in pending[last + 1:] if p[0] not in done]
    return results, jobs


def observe(result, what):
    """What the job showed for one check."""
    if "killed" in result:
        if what == "rc":
            return "hangs" if result.get("hung") else "fails"
        return "(killed: %s)" % result["killed"]
    fields = result["fields"]
    if what == "rc":
        return "ok" if fields.get("rc") == "0" else "fails"
    if what in ("report", "after"):
        if what not in fields:
            return "(no object)"
        return None if fields[what] == "-" else unhexed(fields[what])
    if what == "lock":
        return "allowed" if fields.get("lock") == "0" else "refused"
    if what == "offset":
        return "contiguous" if fields.get("offset") == "100" else "noncontiguous"
    if what == "split":
        return fields.get("split")
    if what == "message":
        for line in result["messages"]:
            if " info: collective_buffering value " in line:
                return "individual" if "enforcing using individual fcoll component" in line else "collective"
        return None
    raise ValueError(what)


def baseline_of(result):
    """What an object reports and shows without hints: {"report": {key: value}, "after": {...},
    "result": result}."""
    report, after, into = {}, {}, "report"
    for word in result.get("words", []):
        name, _, value = word.partition("=")
        if word == "after":
            into = "after"
        elif name not in ("rc", "lock", "offset", "split"):
            (report if into == "report" else after)[unhexed(name)] = unhexed(value)
    return {"report": report, "after": after, "result": result}


def judge(case, result, baseline):
    """Compares what the job showed of one case with each reader's checks: returns the case's
    outcome (agrees, disagrees, unprovable) and a line per reader that disagrees; sets each
    reader's "outcome" and each check's "seen"."""
    outcome = "unprovable"
    lines = []
    for reader in case["readers"]:
        bad = []
        proves = False
        for check in reader["checks"]:
            expected = check["equals"]
            if isinstance(expected, dict):
                if check["what"] in ("report", "after"):
                    expected = baseline[check["what"]].get(case["key"])
                else:
                    expected = observe(baseline["result"], check["what"])
            seen = observe(result, check["what"])
            check["seen"] = seen
            if seen == expected:
                proves = proves or check["proves"]
            elif not check.get("optional"):
                bad.append("%s: expected %s, saw %s" % (check["what"], shown(expected), shown(seen)))
        if bad:
            reader["outcome"] = outcome = "disagrees"
            lines.append("%s (%s at %s) reads it as %s: %s" % (
                reader["parser"], reader["source"], reader["version"], reader["taken"], "; ".join(bad)))
        elif proves:
            reader["outcome"] = "agrees"
            if outcome == "unprovable":
                outcome = "agrees"
        else:
            reader["outcome"] = "unprovable"
    return outcome, lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--probe-mpich", default="")
    parser.add_argument("--probe-openmpi", default="")
    parser.add_argument("--probe-pnetcdf", default="")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", help="write every case and its outcome to this file")
    args = parser.parse_args()
    probes = {"mpich": args.probe_mpich, "openmpi": args.probe_openmpi, "pnetcdf": args.probe_pnetcdf}
    # Open MPI's mpirun refuses to run as root without these (CI runs as root); quiet local runs.
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    os.environ.setdefault("OMPI_MCA_btl_base_warn_component_unused", "0")

    passed = failed = 0
    rows = {}
    readers = {}
    every = []
    # Keys reported without a reader holding in the job: read only under other conditions.
    not_here = {}
    other_setups_keys = {}
    unread_keys = []
    with tempfile.TemporaryDirectory(prefix="hints-proof.") as workdir:
        for setup in SETUPS:
            probe = probes[setup.get("probe", setup["mpi"])]
            if not probe:
                print("proof: %s is not installed: the %s cases are skipped"
                      % (IMPLEMENTATION[setup["name"]], setup["name"]))
                continue
            model = [args.model, setup["target"], "--procs", str(PROCS)]
            for condition in setup["under"]:
                model += ["--under", condition]
            if setup["plain"]:
                model.append("--plain")
            for kind, probe_object in setup["objects"].items():
                model += ["--object", "%s=%s" % (kind, probe_object)]
            model_out = json.loads(subprocess.run(model, stdout=subprocess.PIPE, check=True).stdout)
            cases, elsewhere = model_out["cases"], model_out["elsewhere"]
            lines = []
            probe_objects = sorted(set(case["probe"] for case in cases))
            for probe_object in probe_objects:
                lines.append(("b-" + probe_object, "b-%s %s - -" % (probe_object, probe_object)))
            alone = []
            for n, case in enumerate(cases):
                case["id"] = "c%d" % n
                pairs = [(case["key"], case["value"])] + [tuple(p) for p in case["with"]]
                line = (case["id"], "%s %s %s" % (case["id"], case["probe"],
                                                  " ".join(hexed(k) + " " + hexed(v) for k, v in pairs)))
                (alone if any(r["alone"] for r in case["readers"]) else lines).append(line)
            # The cases together, then each that may fail in a job of its own.
            results, jobs = run_cases(setup, probe, lines, workdir)
            for line in alone:
                result, _ = run_cases(setup, probe, [line], workdir)
                results.update(result)
                jobs += 1
            baselines = {o: baseline_of(results.get("b-" + o, {"killed": "never run"})) for o in probe_objects}
            implementation = IMPLEMENTATION[setup["name"]]
            # Every key the objects report without hints is proved here, or read only elsewhere.
            proved_keys = set(case["key"] for case in cases)
            for probe_object in probe_objects:
                baseline = baselines[probe_object]
                if "killed" in baseline["result"]:
                    failed += 1
                    print("FAIL %s %s: the object without hints: %s" % (setup["name"], probe_object,
                                                                       baseline["result"]["killed"]))
                    continue
                for key in sorted(set(baseline["report"]) | set(baseline["after"])):
                    if key in proved_keys:
                        continue
                    if key in elsewhere:
                        not_here.setdefault((implementation, key), set()).update(elsewhere[key])
                    else:
                        unread_keys.append((implementation, setup, probe_object, key))
            row = rows.setdefault(implementation, {"keys": set(), "values": 0, "proven": 0,
                                                   "disagreeing": 0, "unprovable": 0, "jobs": 0})
            row["jobs"] += jobs
            other_setups_keys.setdefault(implementation, set()).update(case["key"] for case in cases)
            for case in cases:
                result = results.get(case["id"], {"killed": "never run"})
                outcome, lines_out = judge(case, result, baselines[case["probe"]])
                for reader in case["readers"]:
                    proof = readers.setdefault((implementation, case["key"], reader["source"], reader["version"] or ""),
                                               {"proven": 0, "why": set()})
                    if reader["outcome"] == "unprovable":
                        proof["why"].add(reader["unprovable"])
                    else:
                        proof["proven"] += 1
                case["outcome"] = outcome
                case["setup"] = setup["name"]
                case["killed"] = result.get("killed")
                case["teardown"] = result.get("teardown")
                every.append(case)
                row["keys"].add(case["key"])
                row["values"] += 1
                row["proven" if outcome == "agrees" else "disagreeing" if outcome == "disagrees" else "unprovable"] += 1
                label = "%s %s %s=%s" % (setup["name"], case["probe"], case["key"], shown(case["value"]))
                if outcome == "disagrees":
                    failed += 1
                    print("FAIL %s (%s)" % (label, case["class"]))
                    for text in lines_out:
                        print("    " + text)
                else:
                    passed += 1
                    if args.verbose:
                        print("ok   %s (%s): %s" % (label, case["class"], outcome))

    # A key reported in one job and proved in another (Open MPI's window keys) is proved.
    for implementation, setup, probe_object, key in unread_keys:
        if key not in other_setups_keys[implementation]:
            failed += 1
            print("FAIL %s %s reports %s without hints, and the vocabulary has no reader of %s for it"
                  % (setup["name"], probe_object, shown(key), setup["target"]))
    if rows:
        print()
        print("| implementation | keys | values | proven agreeing | disagreeing | unprovable |")
        print("|---|---|---|---|---|---|")
        for implementation, row in rows.items():
            print("| %s | %d | %d | %d | %d | %d |" % (implementation, len(row["keys"]), row["values"], row["proven"],
                                                     row["disagreeing"], row["unprovable"]))
        print()
        print("Readers unprovable here (what the job shows cannot tell their reading), with the line read:")
        for (implementation, key, source, version), proof in sorted(readers.items()):
            if not proof["proven"]:
                print("  %s %s: %s at %s: %s" % (implementation, key, source, version, "; ".join(sorted(proof["why"]))))
    if not_here:
        print()
        print("Keys reported without hints that no reader reads in these jobs (read only under other conditions):")
        for (implementation, key), conditions in sorted(not_here.items()):
            print("  %s %s: %s" % (implementation, key, "; ".join(sorted(conditions))))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(every, out, indent=1)
    print("proof: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
