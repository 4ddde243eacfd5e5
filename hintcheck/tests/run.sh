#!/usr/bin/env bash
# libmpi_info_hintcheck in real MPI jobs (docs/hintcheck.md), on each MPI that is installed
# (MPICH: mpicc.mpich, mpirun.mpich; Open MPI: mpicc.openmpi, mpirun.openmpi), with 2 and 4
# processes (and some jobs of 1 or 2): builds the library (make hintcheck MPICC=...) and
# hintcheck/tests/hintjob.c, runs its modes under mpirun with the library preloaded, and checks
# the reports with check_report.py (which validates each against hintcheck/report.schema.json)
# and shows each with mpi-info-lint --report, as text and as HTML (build/bin/mpi-info-lint, made
# with `make lint` if missing); first the core's unit tests. Report paths that are not regular files (a FIFO, a symbolic link,
# a device node when run as root, /dev/stdout, a directory) must be refused and left as they
# were. Then the I/O stack (stackjob.c): HDF5 programs on each MPI (h5pcc.mpich, h5pcc.openmpi)
# and PnetCDF programs on Open MPI (pkg-config pnetcdf), each mode with 2 and 4 processes, with
# and without the library (the same output and exit status), their reports checked against what
# the layers themselves report; a library that is missing is said, with its Debian package. With
# neither MPI, says so and counts nothing. Every job is bounded by `timeout`. Ends with
# "hintcheck: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
MAKE=${MAKE:-make}
PYTHON=${PYTHON:-python3}
JOB_SECONDS=${JOB_SECONDS:-60}
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The hint texts of the environment are the tests' own.
unset ROMIO_HINTS PNETCDF_HINTS MPICH_MPIIO_HINTS
# Quiet, local Open MPI runs (no network interface probing messages).
export OMPI_MCA_btl_base_warn_component_unused=0

# The man page: renders without a warning, has its sections, and names every variable the tool
# reads, every call it intercepts and every member of the report's schema.
page=docs/man/libmpi_info_hintcheck.7
if command -v man >/dev/null 2>&1; then
    warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    [ $? -eq 0 ] && [ -z "$warnings" ] && ok || { fail "man --warnings $page: $warnings"; }
    MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$page" 2>/dev/null | col -b >"$tmp/page.txt"
    for section in NAME SYNOPSIS DESCRIPTION OUTPUT "THE REPORT" ENVIRONMENT "EXIT STATUS" FILES EXAMPLES NOTES "SEE ALSO"; do
        grep -qx "$section" "$tmp/page.txt" && ok || fail "the man page has no $section"
    done
    members=$($PYTHON -c 'import json, sys
names = set()
def walk(node):
    if isinstance(node, dict):
        names.update(node.get("properties", {}))
        for v in node.values(): walk(v)
    elif isinstance(node, list):
        for v in node: walk(v)
walk(json.load(open(sys.argv[1])))
print(" ".join(sorted(names)))' hintcheck/report.schema.json)
    for name in MPI_INFO_HINTCHECK MPI_INFO_HINTCHECK_VERBOSE MPI_INFO_HINTCHECK_TARGETS OMPI_MCA_io ROMIO_HINTS PNETCDF_HINTS \
        MPICH_MPIIO_HINTS ncmpi_create ncmpi_open H5Pset_fapl_mpio $members; do
        grep -qw -- "$name" "$tmp/page.txt" && ok || fail "the man page does not name $name"
    done
else
    echo "hintcheck: man is missing: the man page checks are skipped (Debian package man-db)"
fi

mpis=()
for mpi in mpich openmpi; do
    if command -v "mpicc.$mpi" >/dev/null 2>&1 && command -v "mpirun.$mpi" >/dev/null 2>&1; then mpis+=("$mpi"); fi
done
if [ ${#mpis[@]} -eq 0 ]; then
    echo "hintcheck: neither MPICH nor Open MPI is installed (mpicc.mpich, mpicc.openmpi): the jobs are skipped"
    echo "hintcheck: 0 passed, 0 failed"
    exit 0
fi

# Adds up check_report.py's "check_report: N passed, M failed" line.
count() {
    local out=$1 line p f
    line=$(grep -E '^check_report: [0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
    if [ -z "$line" ]; then fail "check_report.py printed no totals"; sed 's/^/    | /' "$out"; return; fi
    p=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/' <<<"$line")
    f=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/' <<<"$line")
    passed=$((passed + p)); failed=$((failed + f))
    [ "$f" -eq 0 ] || grep '^FAIL' "$out" | sed 's/^/    /'
}

# run MPI NP LIB(or "") OUT ERR ARGS...: one bounded job; returns its exit status. The report
# variables are passed through from the environment.
run() {
    local mpi=$1 np=$2 lib=$3 out=$4 err=$5; shift 5
    if [ "$mpi" = mpich ]; then
        timeout "$JOB_SECONDS" mpirun.mpich -np "$np" ${lib:+-env LD_PRELOAD "$lib"} "$@" >"$out" 2>"$err"
    else
        local pass=()
        [ -n "$lib" ] && pass+=(-x "LD_PRELOAD=$lib")
        [ -n "${MPI_INFO_HINTCHECK:-}" ] && pass+=(-x MPI_INFO_HINTCHECK)
        [ -n "${MPI_INFO_HINTCHECK_VERBOSE:-}" ] && pass+=(-x MPI_INFO_HINTCHECK_VERBOSE)
        [ -n "${MPI_INFO_HINTCHECK_TARGETS:-}" ] && pass+=(-x MPI_INFO_HINTCHECK_TARGETS)
        [ -n "${ROMIO_HINTS:-}" ] && pass+=(-x ROMIO_HINTS)
        [ -n "${PNETCDF_HINTS:-}" ] && pass+=(-x PNETCDF_HINTS)
        timeout "$JOB_SECONDS" mpirun.openmpi --oversubscribe -np "$np" "${pass[@]}" "$@" >"$out" 2>"$err"
    fi
}

# Standard error without what differs from one run to the next: Open MPI's job ids and
# "[host:pid]" prefixes.
same_err() {
    cmp -s <(sed -E 's/\[\[[0-9]+,/[[job,/g; s/^\[[^]:]+:[0-9]+\]/[host:pid]/' "$1") \
           <(sed -E 's/\[\[[0-9]+,/[[job,/g; s/^\[[^]:]+:[0-9]+\]/[host:pid]/' "$2")
}

# shown REPORT: mpi-info-lint --report shows the report as text and as HTML (docs/hintcheck.md,
# "Reading a report"): exit status 0, something written, no raw control character (but the line
# end) in it.
LINT=$(pwd)/build/bin/mpi-info-lint
shown() {
    local report=$1 format
    for format in text html; do
        if "$LINT" --report "$report" --format "$format" >"$report.$format" 2>"$report.$format.err" \
            && [ -s "$report.$format" ] && ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$report.$format"; then ok
        else fail "mpi-info-lint --report $report --format $format"; head -n 5 "$report.$format.err"; fi
    done
}

# mode MPI NP MODE [N]: hintjob MODE (with N) in $tmp/MPI-NP with a report, whose exit status must be
# 0, checked by check_report.py MODE.
mode() {
    local mpi=$1 np=$2 m=$3 n=${4:-} d=$tmp/$1-$2
    mkdir -p "$d"
    MPI_INFO_HINTCHECK=$d/$m.json run "$mpi" "$np" "$lib" "$d/$m.out" "$d/$m.err" "$job" "$m" "$d" $n
    local status=$?
    [ $status -eq 0 ] && ok || { fail "$mpi -np $np $m: exit $status"; tail -n 20 "$d/$m.err"; }
    $PYTHON hintcheck/tests/check_report.py "$m" "$mpi" "$np" "$d/$m.json" "$d/$m.err" $n >"$d/check.out" 2>&1
    count "$d/check.out"
    shown "$d/$m.json"
}

# refused MPI NAME PATH: hintjob plain with 2 processes and MPI_INFO_HINTCHECK=PATH, where
# something other than a regular file is: the same standard output and exit status as without
# the library ($tmp/MPI-2/plain0.*), one message on standard error (check_report.py refused) and
# nothing else there.
refused() {
    local mpi=$1 name=$2 path=$3 d=$tmp/$1-2
    MPI_INFO_HINTCHECK=$path run "$mpi" 2 "$lib" "$d/ref-$name.out" "$d/ref-$name.err" "$job" plain "$d"
    local status=$?
    [ $status -eq "$(cat "$d/plain0.status")" ] && cmp -s "$d/plain0.out" "$d/ref-$name.out" && ok \
        || { fail "$mpi refused $name: exit status $status or standard output changed"; diff "$d/plain0.out" "$d/ref-$name.out" | head -n 5; }
    $PYTHON hintcheck/tests/check_report.py refused "$d/ref-$name.err" "$path" >"$d/check.out" 2>&1
    count "$d/check.out"
    grep -av '^mpi-info hintcheck: ' "$d/ref-$name.err" >"$d/ref-$name.rest"
    same_err "$d/plain0.err" "$d/ref-$name.rest" && ok || { fail "$mpi refused $name: more on standard error"; head -n 5 "$d/ref-$name.rest"; }
}

# The core's unit tests (they need no MPI, but belong with the jobs), in the core's own target directory (the C API off).
CARGO=${CARGO:-cargo}
if $CARGO test --release -q -p mpi-info-hintcheck --target-dir target/hintcheck >"$tmp/cargo.log" 2>&1; then ok
else fail "cargo test -p mpi-info-hintcheck"; tail -n 20 "$tmp/cargo.log"; fi
if [ ! -x "$LINT" ]; then
    $MAKE --no-print-directory lint >"$tmp/lint.log" 2>&1 && ok || { fail "make lint"; tail -n 20 "$tmp/lint.log"; }
fi

for mpi in "${mpis[@]}"; do
    echo "hintcheck on $mpi:"
    if ! $MAKE --no-print-directory hintcheck MPICC="mpicc.$mpi" >"$tmp/build.log" 2>&1; then
        fail "$mpi: make hintcheck"; tail -n 20 "$tmp/build.log"; continue
    fi
    lib=$(pwd)/build/hintcheck/mpicc.$mpi/libmpi_info_hintcheck.so
    ok
    # make install-hintcheck: the library, the schema and the man page, where man finds it;
    # make uninstall-hintcheck removes every file.
    prefix=$tmp/prefix-$mpi
    if $MAKE --no-print-directory install-hintcheck MPICC="mpicc.$mpi" PREFIX="$prefix" >"$tmp/install.log" 2>&1 \
        && [ -x "$prefix/lib/libmpi_info_hintcheck.so" ] && [ -f "$prefix/share/mpi-info/hintcheck-report.schema.json" ] \
        && { ! command -v man >/dev/null 2>&1 || [ "$(MANPATH=$prefix/share/man man -w libmpi_info_hintcheck)" = "$prefix/share/man/man7/libmpi_info_hintcheck.7" ]; }; then ok
    else fail "$mpi: make install-hintcheck"; tail -n 5 "$tmp/install.log"; fi
    $MAKE --no-print-directory uninstall-hintcheck MPICC="mpicc.$mpi" PREFIX="$prefix" >"$tmp/install.log" 2>&1
    [ -z "$(find "$prefix" -type f 2>/dev/null)" ] && ok || fail "$mpi: make uninstall-hintcheck left $(find "$prefix" -type f | head -n 3)"
    # Only the intercepted MPI_ names are exported: no MPI_Info_, PMPI_Info_ or core names.
    names=$(nm -D --defined-only "$lib" | awk '{print $3}')
    if grep -qvE '^(MPI_(Init|Init_thread|Finalize|File_open|File_close|File_set_info|File_set_view|Win_create|Win_allocate|Win_allocate_shared|Win_create_dynamic|Win_set_info|Comm_set_info|Comm_dup_with_info|Comm_split_type|Comm_spawn|Comm_spawn_multiple|Session_init)|ncmpi_create|ncmpi_open|H5Pset_fapl_mpio)$' <<<"$names"; then
        fail "$mpi: the library exports other names: $(grep -vE '^(MPI_|ncmpi_|H5P)' <<<"$names" | head -n 5 | tr '\n' ' ')"
    else ok; fi
    job=$tmp/hintjob_$mpi
    if ! "mpicc.$mpi" -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror hintcheck/tests/hintjob.c -o "$job" -lpthread 2>"$tmp/cc.log"; then
        fail "$mpi: building hintjob.c"; cat "$tmp/cc.log"; continue
    fi
    for np in 2 4; do
        dir=$tmp/$mpi-$np
        mkdir -p "$dir"
        # codes: every diagnostic code and effective status; the report and the summary.
        MPI_INFO_HINTCHECK=$dir/codes.json run "$mpi" "$np" "$lib" "$dir/codes.out" "$dir/codes.err" "$job" codes "$dir"
        status=$?
        [ $status -eq 0 ] && ok || { fail "$mpi -np $np codes: exit $status"; tail -n 20 "$dir/codes.err"; }
        $PYTHON hintcheck/tests/check_report.py codes "$mpi" "$np" "$dir/codes.json" "$dir/codes.err" >"$dir/check.out" 2>&1
        count "$dir/check.out"
        shown "$dir/codes.json"
        # The same job without the library: the same output and exit status.
        run "$mpi" "$np" "" "$dir/codes0.out" "$dir/codes0.err" "$job" codes "$dir"
        [ $? -eq $status ] && cmp -s "$dir/codes.out" "$dir/codes0.out" && ok || fail "$mpi -np $np codes: output or status differ without the library"

        # disagree: named at once on standard error, and in the report.
        MPI_INFO_HINTCHECK=$dir/disagree.json run "$mpi" "$np" "$lib" "$dir/disagree.out" "$dir/disagree.err" "$job" disagree "$dir"
        status=$?
        [ $status -eq 0 ] && ok || { fail "$mpi -np $np disagree: exit $status"; tail -n 20 "$dir/disagree.err"; }
        $PYTHON hintcheck/tests/check_report.py disagree "$mpi" "$np" "$dir/disagree.json" "$dir/disagree.err" >"$dir/check.out" 2>&1
        count "$dir/check.out"
        shown "$dir/disagree.json"

        # repeat: equal calls merged; threads: MPI_THREAD_MULTIPLE; windows: the other window calls.
        for mode in repeat threads windows; do
            MPI_INFO_HINTCHECK=$dir/$mode.json run "$mpi" "$np" "$lib" "$dir/$mode.out" "$dir/$mode.err" "$job" $mode "$dir"
            status=$?
            [ $status -eq 0 ] && ok || { fail "$mpi -np $np $mode: exit $status"; tail -n 20 "$dir/$mode.err"; }
            $PYTHON hintcheck/tests/check_report.py $mode "$mpi" "$np" "$dir/$mode.json" "$dir/$mode.err" >"$dir/check.out" 2>&1
            count "$dir/check.out"
            shown "$dir/$mode.json"
        done

        # plain: an ordinary program, no variable set: output, standard error and exit status
        # identical with and without the library (nothing printed on a clean run).
        run "$mpi" "$np" "" "$dir/plain0.out" "$dir/plain0.err" "$job" plain "$dir"
        s0=$?
        echo $s0 >"$dir/plain0.status"
        run "$mpi" "$np" "$lib" "$dir/plain1.out" "$dir/plain1.err" "$job" plain "$dir"
        s1=$?
        [ $s0 -eq $s1 ] && [ $s0 -ne 124 ] && ok || fail "$mpi -np $np plain: exit status $s1 with the library, $s0 without"
        cmp -s "$dir/plain0.out" "$dir/plain1.out" && grep -q "^plain: $np processes" "$dir/plain1.out" && ok \
            || { fail "$mpi -np $np plain: standard output differs"; diff "$dir/plain0.out" "$dir/plain1.out" | head -n 10; }
        same_err "$dir/plain0.err" "$dir/plain1.err" && ok \
            || { fail "$mpi -np $np plain: standard error differs"; diff "$dir/plain0.err" "$dir/plain1.err" | head -n 10; }

        # MPI_INFO_HINTCHECK_VERBOSE=1: the summary even on a clean run; %r: a report per rank.
        MPI_INFO_HINTCHECK=$dir/plain-%r.json MPI_INFO_HINTCHECK_VERBOSE=1 run "$mpi" "$np" "$lib" "$dir/plainv.out" "$dir/plainv.err" "$job" plain "$dir"
        grep -q "^mpi-info hintcheck: 1 checked call on rank 0, 0 diagnostics (0 on all $np processes), 0 hints" "$dir/plainv.err" && ok \
            || { fail "$mpi -np $np plain verbose: no summary"; head -n 5 "$dir/plainv.err"; }
        for ((r = 0; r < np; r++)); do
            $PYTHON hintcheck/tests/check_report.py schema "$dir/plain-$r.json" >"$dir/check.out" 2>&1
            count "$dir/check.out"
            shown "$dir/plain-$r.json"
        done
    done
    # One process: every call agrees with itself, with no collective (and no communicator made
    # for the group of a file or window); the report is whole and valid.
    dir=$tmp/$mpi-1
    mkdir -p "$dir"
    MPI_INFO_HINTCHECK=$dir/codes.json run "$mpi" 1 "$lib" "$dir/codes.out" "$dir/codes.err" "$job" codes "$dir"
    [ $? -eq 0 ] && ok || { fail "$mpi -np 1 codes: exit status"; tail -n 20 "$dir/codes.err"; }
    $PYTHON hintcheck/tests/check_report.py schema "$dir/codes.json" >"$dir/check.out" 2>&1
    count "$dir/check.out"
    shown "$dir/codes.json"
    grep -q '"checked_calls": 8,' "$dir/codes.json" && ! grep -q 'agreement not checked' "$dir/codes.json" && ok \
        || fail "$mpi -np 1 codes: not 8 checked calls, or an agreement not checked"

    # Many files opened with the same hints are one entry (8 file names, the others counted).
    mode "$mpi" 2 many 100
    # A job killed 3 s after its last call: the report has every call (rewritten at least once a
    # second while counts change), and says it was not finalized.
    d=$tmp/$mpi-2
    MPI_INFO_HINTCHECK=$d/die.json run "$mpi" 2 "$lib" "$d/die.out" "$d/die.err" "$job" die "$d" 200
    $PYTHON hintcheck/tests/check_report.py die "$mpi" 2 "$d/die.json" "$d/die.err" 200 >"$d/check.out" 2>&1
    count "$d/check.out"
    shown "$d/die.json"
    # ESC, BEL, newlines and a byte that is not UTF-8 in a key, a value and a file name: kept
    # exactly in the report, escaped on standard error (disagreement and summary).
    mode "$mpi" 2 controls
    mode "$mpi" 1 controls
    # A failed MPI_File_open: one note, that the call failed.
    mode "$mpi" 2 fail
    # One disagreeing key in 3 equal calls: the summary counts 1 key, in 3 calls.
    mode "$mpi" 2 redisagree
    # A child made with fork while the flusher runs.
    mode "$mpi" 2 fork
    grep -q '^fork: the child left with 0$' "$tmp/$mpi-2/fork.out" && ok || fail "$mpi fork: the child's exit status"

    # The report needs a regular file (or nothing) at its path: a FIFO with a reader waiting, a
    # symbolic link to a file, a device node, /dev/stdout and a directory (named with ESC, BEL and
    # a newline) are refused and left as they were.
    d=$tmp/$mpi-2
    mkfifo "$d/report.fifo"
    timeout 30 cat "$d/report.fifo" >"$d/fifo.read" &
    reader=$!
    refused "$mpi" fifo "$d/report.fifo"
    [ -p "$d/report.fifo" ] && ok || fail "$mpi refused fifo: the FIFO was replaced"
    timeout 5 bash -c ': >"$1"' _ "$d/report.fifo"     # EOF for the reader, if it still waits
    wait $reader
    [ ! -s "$d/fifo.read" ] && ok || fail "$mpi refused fifo: the reader got $(wc -c <"$d/fifo.read") bytes"
    printf 'keep\n' >"$d/target.txt"
    ln -s target.txt "$d/report.link"
    refused "$mpi" symlink "$d/report.link"
    [ -L "$d/report.link" ] && [ "$(readlink "$d/report.link")" = target.txt ] && [ "$(cat "$d/target.txt")" = keep ] && ok \
        || fail "$mpi refused symlink: the link or its target changed"
    if [ "$(id -u)" -eq 0 ] && mknod "$d/report.dev" c 1 3 2>/dev/null; then
        refused "$mpi" device "$d/report.dev"
        [ -c "$d/report.dev" ] && [ "$(stat -c %t,%T "$d/report.dev")" = 1,3 ] && ok || fail "$mpi refused device: the device node was replaced"
    else
        echo "hintcheck: $mpi: the device-node test is skipped: mknod needs root"
    fi
    stdout_link=$(readlink /dev/stdout)
    refused "$mpi" stdout /dev/stdout
    [ -L /dev/stdout ] && [ "$(readlink /dev/stdout)" = "$stdout_link" ] && ok || fail "$mpi refused /dev/stdout: it changed"
    odd=$d/$'r\e[31m\a\n.json'
    mkdir "$odd"
    refused "$mpi" directory "$odd"
    [ -d "$odd" ] && [ -z "$(ls -A "$odd")" ] && ok || fail "$mpi refused directory: it changed"

    # too-long-for-target: the MPI's own MPI_Info_set refuses a key too long for it, so only a
    # second target shows it (MPI_INFO_HINTCHECK_TARGETS; Open MPI's limits are the smallest).
    if [ "$mpi" = mpich ]; then
        MPI_INFO_HINTCHECK=$tmp/long.json MPI_INFO_HINTCHECK_TARGETS=mpich,openmpi run "$mpi" 2 "$lib" "$tmp/long.out" "$tmp/long.err" "$job" long "$tmp"
        [ $? -eq 0 ] && ok || fail "$mpi long: exit status"
        $PYTHON hintcheck/tests/check_report.py long "$mpi" 2 "$tmp/long.json" "$tmp/long.err" >"$tmp/check.out" 2>&1
        count "$tmp/check.out"
        shown "$tmp/long.json"
        # An unknown name among the targets is noted (escaped) and ignored; the others are kept.
        MPI_INFO_HINTCHECK=$tmp/targets.json MPI_INFO_HINTCHECK_TARGETS=$'mpich,no\esuch,openmpi' run "$mpi" 2 "$lib" "$tmp/targets.out" "$tmp/targets.err" "$job" long "$tmp"
        [ $? -eq 0 ] && ok || fail "$mpi targets: exit status"
        $PYTHON hintcheck/tests/check_report.py targets "$mpi" 2 "$tmp/targets.json" "$tmp/targets.err" >"$tmp/check.out" 2>&1
        count "$tmp/check.out"
        shown "$tmp/targets.json"
        # A key of 255 characters, which MPICH 4.0.2's MPI_Info_get_nthkey gives cut to 254: noted.
        mode "$mpi" 2 longkey
    fi
    # MPICH 4.0.2 hangs in MPI_File_open when romio_no_indep_rw is passed by some processes only:
    # the disagreement is printed, and the report written, before (the job is then ended by
    # timeout).
    if [ "$mpi" = mpich ]; then
        MPI_INFO_HINTCHECK=$tmp/hang.json JOB_SECONDS=8 run "$mpi" 2 "$lib" "$tmp/hang.out" "$tmp/hang.err" "$job" hang "$tmp"
        $PYTHON hintcheck/tests/check_report.py hang "$mpi" 2 "$tmp/hang.json" "$tmp/hang.err" >"$tmp/check.out" 2>&1
        count "$tmp/check.out"
        shown "$tmp/hang.json"
    fi
done
# The I/O stack above the MPI: stackjob.c built for HDF5 on each MPI and for PnetCDF (built with
# Open MPI) on Open MPI, each mode with 2 and 4 processes. Each job runs without the library,
# then with it and a report: the same standard output and exit status, the same standard error
# but for the tool's lines (none on a clean job); check_report.py stack checks the report
# against what the layers themselves reported to the program (MODE.truth).
tool_lines() { grep -av -e '^mpi-info hintcheck: ' -e '^  ' "$1"; }
# stack_job MPI LIB JOB NP MODE [TAG ARGS...]: JOB MODE DIR ARGS... in $tmp/stack-LIB[TAG]-MPI-NP.
stack_job() {
    local mpi=$1 name=$2 job=$3 np=$4 mode=$5 d=$tmp/stack-$2${6:-}-$1-$4 s0 s1
    local args=("${@:7}")
    local lib=$(pwd)/build/hintcheck/mpicc.$mpi/libmpi_info_hintcheck.so
    mkdir -p "$d"
    local romio= pnetcdf=
    [ "$mode" = romio ] && { printf 'cb_nodes 2\nromio_cb_write enable\n' >"$d/romio-hints"; romio=$d/romio-hints; }
    [ "$mode" = env ] && pnetcdf='cb_nodes=2;nc_var_align_size=1m;nc_header_algn_size=1'
    ROMIO_HINTS=$romio PNETCDF_HINTS=$pnetcdf run "$mpi" "$np" "" "$d/$mode.out0" "$d/$mode.err0" "$job" "$mode" "$d" "${args[@]}"
    s0=$?
    ROMIO_HINTS=$romio PNETCDF_HINTS=$pnetcdf MPI_INFO_HINTCHECK=$d/$mode.json run "$mpi" "$np" "$lib" "$d/$mode.out" "$d/$mode.err" "$job" "$mode" "$d" "${args[@]}"
    s1=$?
    [ $s0 -eq 0 ] && [ $s1 -eq 0 ] && ok || { fail "$name on $mpi -np $np $mode: exit status $s1 with the library, $s0 without"; tail -n 5 "$d/$mode.err"; }
    cmp -s "$d/$mode.out0" "$d/$mode.out" && grep -q "^stackjob $name $mode: $np processes, write done" "$d/$mode.out" && ok \
        || { fail "$name on $mpi -np $np $mode: standard output"; diff "$d/$mode.out0" "$d/$mode.out" | head -n 5; }
    if [ "$mode" = clean ] || [ "$mode" = romio ]; then
        same_err "$d/$mode.err0" "$d/$mode.err" && ok || { fail "$name on $mpi -np $np $mode: a clean job printed"; head -n 5 "$d/$mode.err"; }
    else
        same_err <(tool_lines "$d/$mode.err0") <(tool_lines "$d/$mode.err") && grep -q '^mpi-info hintcheck: ' "$d/$mode.err" && ok \
            || { fail "$name on $mpi -np $np $mode: standard error"; head -n 5 "$d/$mode.err"; }
    fi
    $PYTHON hintcheck/tests/check_report.py stack "$name" "$mpi" "$np" "$mode" "$d/$mode.json" "$d/$mode.err" "$d/$mode.truth" >"$d/check.out" 2>&1
    count "$d/check.out"
}
STACK_CFLAGS="-std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror"
for mpi in "${mpis[@]}"; do
    [ -f "build/hintcheck/mpicc.$mpi/libmpi_info_hintcheck.so" ] || continue
    jobs=()
    # h5pcc links HDF5 statically unless told otherwise (the tool sees a shared HDF5 only), and
    # leaves its object file in the current directory: it runs in $tmp.
    if command -v "h5pcc.$mpi" >/dev/null 2>&1; then
        if (cd "$tmp" && "h5pcc.$mpi" -shlib $STACK_CFLAGS -DSTACK_HDF5 "$OLDPWD/hintcheck/tests/stackjob.c" -o "stack_hdf5_$mpi") 2>"$tmp/cc.log"; then
            ok; jobs+=(hdf5)
        else fail "$mpi: building stackjob.c for HDF5"; cat "$tmp/cc.log"; fi
    else
        echo "hintcheck: $mpi: the HDF5 jobs are skipped: h5pcc.$mpi is missing (Debian package libhdf5-$mpi-dev; make deps installs it)"
    fi
    if [ "$mpi" = openmpi ]; then
        if pkg-config --exists pnetcdf 2>/dev/null; then
            if mpicc.openmpi $STACK_CFLAGS -DSTACK_PNETCDF $(pkg-config --cflags pnetcdf) hintcheck/tests/stackjob.c -o "$tmp/stack_pnetcdf_$mpi" $(pkg-config --libs pnetcdf) 2>"$tmp/cc.log"; then
                ok; jobs+=(pnetcdf)
            else fail "$mpi: building stackjob.c for PnetCDF"; cat "$tmp/cc.log"; fi
        else
            echo "hintcheck: $mpi: the PnetCDF jobs are skipped: PnetCDF is missing (Debian package libpnetcdf-dev; make deps installs it)"
        fi
    fi
    for name in "${jobs[@]}"; do
        echo "hintcheck: $name on $mpi:"
        modes="clean misspelled suffix differ romio"
        [ "$name" = pnetcdf ] && modes="$modes env"
        for np in 2 4; do
            for mode in $modes; do stack_job "$mpi" "$name" "$tmp/stack_${name}_$mpi" "$np" "$mode"; done
        done
    done
    # HDF5 loaded after MPI_Init, with dlopen(RTLD_LOCAL), as Python loads h5py after mpi4py: a
    # program linked with the MPI alone loads an object linked with HDF5. HDF5 is found at the
    # next call, and its H5Pset_fapl_mpio, in no global scope, is reached through the object found.
    if [[ " ${jobs[*]} " == *" hdf5 "* ]]; then
        if (cd "$tmp" && "h5pcc.$mpi" -shlib $STACK_CFLAGS -fPIC -shared -DSTACK_HDF5 -DSTACK_MODULE "$OLDPWD/hintcheck/tests/stackjob.c" -o "libstack_hdf5_$mpi.so") 2>"$tmp/cc.log" \
            && "mpicc.$mpi" $STACK_CFLAGS -DSTACK_LATE hintcheck/tests/stackjob.c -o "$tmp/stack_late_$mpi" -ldl 2>>"$tmp/cc.log"; then
            ok
            ! ldd "$tmp/stack_late_$mpi" | grep -q hdf5 && ok || fail "$mpi: the late program is linked with HDF5"
            echo "hintcheck: hdf5 loaded after MPI_Init on $mpi:"
            stack_job "$mpi" hdf5 "$tmp/stack_late_$mpi" 2 suffix -late "$tmp/libstack_hdf5_$mpi.so"
        else fail "$mpi: building stackjob.c as a module loaded late"; cat "$tmp/cc.log"; fi
    fi
done
echo "hintcheck: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
