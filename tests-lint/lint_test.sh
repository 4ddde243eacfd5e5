#!/usr/bin/env bash
# mpi-info-lint (tools/mpi-info-lint, man page docs/man/mpi-info-lint.1), run as a user runs it:
# every finding code from inputs of our own (the suggestion for a near miss, the plain number for
# a unit suffix); the four syntaxes with exact line and column; exit statuses 0, 1 and 2 (usage
# errors, inputs that cannot be read, and the other files still checked); JSON output; standard
# input; --env with each variable; --list and --explain (the sources of each reader); colour;
# bad input (a 5 MB line, FIFOs with and without a writer, a file over 16 MiB); --vocabulary;
# hostile inputs (file names, keys, values and vocabulary text with control bytes and bytes that
# are not UTF-8, escaped in text and given back by JSON; closed standard input and output, a
# closed pipe, a full device; columns after a byte-order mark; JSON of a million findings in
# bounded memory); no finding on the example hint sets of the ROMIO, OMPIO and PnetCDF
# documentation (tests-lint/examples, each file saying where it comes from); the man page
# rendering without warnings; and --report: reports of libmpi_info_hintcheck of our own,
# validated against its schema, shown as text (line for line) and as HTML (parsed, its tables
# checked), hostile strings in them shown as text only, bad reports and options refused.
#
# Run from anywhere (tests-c/run-suite.sh runs it with MAKE, CC and PYTHON set); it builds the
# command with `make lint` only if build/bin/mpi-info-lint is missing.
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
PYTHON=${PYTHON:-python3}
repo=$PWD
LINT=$repo/build/bin/mpi-info-lint
passed=0; failed=0
tmp=$(mktemp -d)
writer=
cleanup() {
    if [ -n "$writer" ]; then kill "$writer" 2>/dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
log=$tmp/log out=$tmp/out err=$tmp/err
: >"$out"; : >"$err"
rc=0; last=
# The variables --env reads, and colour, are set only where a check sets them.
unset ROMIO_HINTS PNETCDF_HINTS MPICH_MPIIO_HINTS NO_COLOR

check() { # check DESCRIPTION COMMAND... : one check, passed if COMMAND succeeds
    local what=$1; shift
    if "$@" >"$log" 2>&1; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "check failed: $what"
        tail -n 20 "$log" | sed 's/^/    /'
        echo "    last run: $last (exit $rc)"
        head -n 12 "$out" | sed 's/^/    stdout| /'
        head -n 6 "$err" | sed 's/^/    stderr| /'
    fi
}
finish() {
    echo "lint_test: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]; exit
}

# run ARGS... : runs the command, standard input from $STDIN (default /dev/null), output to
# $out and $err, status to $rc (124 if it has not ended in 60 seconds).
if command -v timeout >/dev/null 2>&1; then limit="timeout 60"; else limit=; fi
run() {
    last="mpi-info-lint $*"
    $limit "$LINT" "$@" <"${STDIN:-/dev/null}" >"$out" 2>"$err"
    rc=$?
}
exits() { [ "$rc" -eq "$1" ] || { echo "exit status $rc, expected $1"; return 1; }; }
line() { grep -qxF -- "$1" "$out" || { echo "no line: $1"; return 1; }; }
matches() { grep -qE -- "$1" "$out" || { echo "no line matching: $1"; return 1; }; }
says() { grep -qF -- "$1" "$err" || { echo "stderr does not say: $1"; return 1; }; }
lines() { [ "$(wc -l <"$out")" -eq "$1" ] || { echo "$(wc -l <"$out") lines of output, expected $1"; return 1; }; }
silent() { [ ! -s "$out" ] || { echo "output where none was expected"; return 1; }; }
no_stderr() { [ ! -s "$err" ] || { echo "stderr:"; cat "$err"; return 1; }; }
# No panic (exit 101), no signal (128 + n; 124 is timeout's), no such message.
no_crash() {
    [ "$rc" -ne 101 ] && [ "$rc" -lt 124 ] || { echo "exit status $rc"; return 1; }
    ! grep -qiE 'panicked|RUST_BACKTRACE|stack overflow|memory allocation .* failed' "$err" || { echo "it crashed:"; cat "$err"; return 1; }
}
# The codes of the findings of the last run, one per line, sorted and unique.
codes() { sed -nE 's/.* \[([a-z-]+)\]$/\1/p' "$out" | sort -u; }
only_codes() { [ "$(codes | tr '\n' ' ')" = "$* " ] || { echo "codes: $(codes | tr '\n' ' '), expected $*"; return 1; }; }

if [ ! -x "$LINT" ]; then
    check "make lint builds $LINT" "$MAKE" --no-print-directory lint
    [ -x "$LINT" ] || finish
fi
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "$PYTHON is missing: the JSON checks need Python 3"
    failed=$((failed + 1)); finish
fi

# ---------------------------------------------------------------------------------------------
# (1) Each code, from inputs of our own.
cd "$tmp"
printf 'cb_bufer_size 4194304\nromio_cb_write Enable\ncb_buffer_size 16m\nstriping_factor -5\n' >codes.txt
run --target mpich codes.txt
check "codes: exit 1 with findings" exits 1
check "unknown-key: compiler-style line with the nearest key" \
    line "codes.txt:1:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "bad-value: 'Enable' is not a spelling ROMIO takes" \
    matches "^codes\.txt:2:1: error: for mpich: 'Enable' is not one of enable, .*\[bad-value\]$"
check "unit-suffix: says what ROMIO reads and the plain number" \
    line "codes.txt:3:1: error: for mpich: '16m' is read as 16: the 'm' is dropped; 16m is 16777216 [unit-suffix]"
check "out-of-range: a negative striping_factor" \
    matches "^codes\.txt:4:1: error: for mpich \(Lustre file system, PVFS2 file system\): -5 is below the least value it takes, 0 \[out-of-range\]$"
check "codes: one finding a line, nothing else" lines 4
check "codes: nothing on stderr" no_stderr

printf 'romio_ds_read disable\n' >romio-only.txt
run --target openmpi romio-only.txt
check "not-read-by-target: a ROMIO-only key with --target openmpi is a note (another implementation's hint)" \
    matches "^romio-only\.txt:1:1: note: 'romio_ds_read' is not read by openmpi; it is read by [a-z, -]*mpich[a-z, -]* \[not-read-by-target\]$"
check "not-read-by-target: a note never makes the status 1" exits 0
run --target mpich romio-only.txt
check "the same key with --target mpich: exit 0, nothing printed" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ]"

printf 'mpi_assert_strict_persistent_collective_ordering true\n' >long-key.txt
run --target openmpi long-key.txt
check "too-long-for-target: a 48-character key for openmpi (at most 35)" \
    matches "^long-key\.txt:1:1: error: for openmpi: a key has at most 35 characters, this one has 48; .*\[too-long-for-target\]$"
run --target mpich long-key.txt
check "the same key for mpich (at most 255): no too-long-for-target" sh -c "! grep -q 'too-long-for-target' '$out'"

# A conflict of data/hints.json's "conflicts": ROMIO reads romio_no_indep_rw after romio_cb_write.
printf 'romio_cb_write disable\nromio_no_indep_rw true\n' >conflict.txt
run --target mpich conflict.txt
check "conflict: romio_cb_write=disable with romio_no_indep_rw=true, on the second" \
    matches "^conflict\.txt:2:1: warning: for mpich: ROMIO reads romio_no_indep_rw after romio_cb_write.*\[conflict\]$"
check "conflict: the only finding" only_codes conflict
printf 'romio_cb_write enable\nromio_no_indep_rw true\n' >no-conflict.txt
run --target mpich no-conflict.txt
check "romio_cb_write=enable with romio_no_indep_rw=true: no conflict" exits 0

# malformed-line: the message names the syntax and the one the line looks like.
printf 'cb_nodes=4\nlonely\na b c\n  # indented\ncb_nodes 4 # comment\ncb_nodes=4;cb_buffer_size=1024\n' >malformed.txt
run --target mpich malformed.txt
check "malformed-line (romio): 'key=value' looks like --syntax kv" \
    matches "^malformed\.txt:1:1: error: malformed line for --syntax romio: .*looks like 'key=value' \(--syntax kv\).*\[malformed-line\]$"
check "malformed-line (romio): a key without a value" \
    matches "^malformed\.txt:2:1: error: malformed line for --syntax romio: a key without a value.*\[malformed-line\]$"
check "malformed-line (romio): three words" \
    matches "^malformed\.txt:3:1: error: malformed line for --syntax romio: .*\[malformed-line\]$"
check "malformed-line (romio): an indented comment, at its column" \
    matches "^malformed\.txt:4:3: error: .*indented comment.*\[malformed-line\]$"
check "malformed-line (romio): a comment after the value" \
    matches "^malformed\.txt:5:1: error: malformed line for --syntax romio: a comment after the value.*\[malformed-line\]$"
check "malformed-line (romio): 'k=v;k=v' looks like --syntax pnetcdf" \
    matches "^malformed\.txt:6:1: error: .*\(--syntax pnetcdf\).*\[malformed-line\]$"
check "malformed-line: nothing else" only_codes malformed-line
printf 'cb_nodes 4\n' >romio-line.txt
run --syntax kv romio-line.txt
check "malformed-line (kv): 'key value' looks like --syntax romio" \
    matches "^romio-line\.txt:1:1: error: malformed line for --syntax kv: .*\(--syntax romio\) \[malformed-line\]$"
printf '*:cb_nodes=4\n' >cray-line.txt
run --syntax kv cray-line.txt
check "a cray line read as kv: the key '*:cb_nodes' is unknown" matches "unknown hint '\*:cb_nodes'"
run --syntax romio cray-line.txt
check "malformed-line (romio): 'pattern:k=v' looks like --syntax cray" \
    matches "^cray-line\.txt:1:1: error: .*\(--syntax cray\).*\[malformed-line\]$"

# duplicate-key: ROMIO keeps the first, a kv text (MPI_Info_set in turn) the last.
printf 'cb_nodes 4\ncb_nodes 4k\n' >dup.txt
run --target mpich dup.txt
check "duplicate-key (romio): reported on the second, the reader uses the first" \
    line "dup.txt:2:1: warning: 'cb_nodes' is given again (first on line 1); the reader uses the first [duplicate-key]"
check "duplicate-key (romio): the unused '4k' is not checked" only_codes duplicate-key
printf 'cb_nodes=4k\ncb_nodes=4\n' >dup-kv.txt
run --syntax kv --target mpich dup-kv.txt
check "duplicate-key (kv): the reader uses the last" \
    line "dup-kv.txt:2:1: warning: 'cb_nodes' is given again (first on line 1); the reader uses this one, the last [duplicate-key]"
check "duplicate-key (kv): the overridden '4k' is not checked" only_codes duplicate-key
# A key given three times or more: one duplicate-key a repetition, never a crash (it once
# panicked), in every syntax and through --env; the reader's choice is still the one checked.
printf 'cb_nodes 4\ncb_nodes 8\ncb_nodes 16\ncb_nodes 4k\n' >dup3.txt
run --target mpich dup3.txt
check "a key four times (romio): exit 1, no crash" sh -c "[ $rc -eq 1 ]"
check "a key four times (romio): three duplicate-key, each against line 1" \
    sh -c "[ \$(grep -c \"'cb_nodes' is given again (first on line 1); the reader uses the first \\[duplicate-key\\]\" '$out') -eq 3 ]"
check "a key four times (romio): only duplicate-key (the first, 4, is used)" only_codes duplicate-key
printf 'cb_nodes=4\ncb_nodes=8\ncb_nodes=16k\n' >dup3.kv
run --syntax kv --target mpich dup3.kv
check "a key three times (kv): no crash, two duplicate-key" sh -c "[ $rc -eq 1 ] && [ \$(grep -c 'duplicate-key' '$out') -eq 2 ]"
check "a key three times (kv): the last, 16k, is the one checked" \
    line "dup3.kv:3:1: error: for mpich: '16k' is read as 16: the 'k' is dropped; 16k is 16384 [unit-suffix]"
printf 'nc_var_align_size=4;nc_var_align_size=8;nc_var_align_size=16' >dup3.pnetcdf
run --syntax pnetcdf --target pnetcdf dup3.pnetcdf
check "a key three times (pnetcdf): no crash, two duplicate-key" sh -c "[ $rc -eq 1 ] && [ \$(grep -c 'duplicate-key' '$out') -eq 2 ]"
printf '*:cb_nodes=4:cb_nodes=8:cb_nodes=16\n' >dup3.cray
run --syntax cray --target cray-mpich dup3.cray
check "a key three times in one group (cray): no crash, two duplicate-key" sh -c "[ $rc -eq 1 ] && [ \$(grep -c 'duplicate-key' '$out') -eq 2 ]"
printf '*.nc:cb_nodes=4,*.h5:cb_nodes=8,*:cb_nodes=16\n' >groups.cray
run --syntax cray --target cray-mpich groups.cray
check "MPICH_MPIIO_HINTS: the same key in three pattern groups is no duplicate" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ]"
printf '*.nc:cray_cb_write_lock_mode=1,*:romio_no_indep_rw=false\n' >scopes.cray
run --syntax cray --target cray-mpich scopes.cray
check "MPICH_MPIIO_HINTS: keys of two groups never conflict (one group applies to a file)" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ]"
MPICH_MPIIO_HINTS='*:cb_nodes=4:cb_nodes=8:cb_nodes=16' PNETCDF_HINTS='nc_var_align_size=4;nc_var_align_size=8;nc_var_align_size=16' \
    ROMIO_HINTS=$tmp/dup3.txt run --env
check "--env with a key three times in each variable: no crash, exit 1" sh -c "[ $rc -eq 1 ] && ! grep -qi panicked '$err'"
check "--env with a key three times in each variable: seven duplicate-key" sh -c "[ \$(grep -c 'duplicate-key' '$out') -eq 7 ]"

# truncated-input: 64 lines of 64 bytes are ROMIO's 4096; what follows is never read.
for i in $(seq -w 1 64); do printf '# padding line %s: ROMIO reads 4096 bytes of ROMIO_HINTS ......\n' "$i"; done >trunc.txt
printf 'cb_nodes 4\n' >>trunc.txt
check "the truncation input is 4096 + 11 bytes" test "$(wc -c <trunc.txt)" -eq 4107
run --target mpich trunc.txt
check "truncated-input: at the 4097th byte, line 65" \
    matches "^trunc\.txt:65:1: error: the reader of ROMIO_HINTS reads only the first 4096 bytes; .*\(11 bytes\) \[truncated-input\]$"
check "truncated-input: the only finding" only_codes truncated-input
head -n 64 trunc.txt >exact.txt
check "the exact input is 4096 bytes" test "$(wc -c <exact.txt)" -eq 4096
run --target mpich exact.txt
check "truncated-input: a file of exactly 4096 bytes fills ROMIO's buffer with no end, at its last byte" \
    matches "^exact\.txt:64:64: error: the reader of ROMIO_HINTS reads at most 4096 bytes into a buffer of that size.*\[truncated-input\]$"
printf '\357\273\277cb_nodes 4\n' >bom.txt
run --target mpich bom.txt
check "a byte-order mark is malformed at 1:1" matches "^bom\.txt:1:1: error: a UTF-8 byte-order mark: .*\[malformed-line\]$"
check "a byte-order mark: the key after it is read as cb_nodes" only_codes malformed-line
run --list mpich bom.txt
check "--list with a FILE is a usage error" exits 2
head -n 60 trunc.txt >short.txt; printf 'cb_nodes 4\n' >>short.txt
run --target mpich short.txt
check "a ROMIO_HINTS file under 4096 bytes: exit 0" exits 0
head -n 64 trunc.txt >trunc.kv; printf 'cb_nodes=4\n' >>trunc.kv
run --syntax kv --target mpich trunc.kv
check "no truncation for --syntax kv (no 4096-byte reader)" exits 0

# ---------------------------------------------------------------------------------------------
# (2) The syntaxes, with exact line and column.
printf '# comment\n\n  cb_bufer_size\t4\ncb_nodes 4\n' >s.romio
run s.romio
check "romio: line 3 column 3 (after two blanks)" \
    line "s.romio:3:3: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "romio: nothing else" lines 1
printf '# comment\n\n   cb_bufer_size = 4\ncb_nodes=4\n\tromio_cb_wrte=enable\n' >s.kv
run --syntax kv s.kv
check "kv: line 3 column 4" \
    line "s.kv:3:4: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "kv: line 5 column 2 (after a tab)" matches "^s\.kv:5:2: warning: unknown hint 'romio_cb_wrte'; did you mean 'romio_cb_write'.*\[unknown-key\]$"
check "kv: nothing else" lines 2
printf ' cb_bufer_size=4;  romio_cb_wrte=enable;bad;\nnc_var_align_size=512;nc_hdr_align_size=512\n' >s.pnetcdf
run --syntax pnetcdf s.pnetcdf
check "pnetcdf: line 1 column 2" \
    line "s.pnetcdf:1:2: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "pnetcdf: line 1 column 20 (after ';' and two blanks)" matches "^s\.pnetcdf:1:20: warning: unknown hint 'romio_cb_wrte'.*\[unknown-key\]$"
check "pnetcdf: an entry without '=' at line 1 column 41" \
    matches "^s\.pnetcdf:1:41: error: malformed line for --syntax pnetcdf: no '=' between a key and a value.*\[malformed-line\]$"
check "pnetcdf: line 2 column 23" matches "^s\.pnetcdf:2:23: warning: unknown hint 'nc_hdr_align_size'; did you mean .*'nc_header_align_size'.*\[unknown-key\]$"
check "pnetcdf: nothing else" lines 4
# PnetCDF cuts an entry at its first blank and skips one with a second '=' or no value
# (src/dispatchers/file.c combine_env_hints): each is malformed, not a pair.
printf 'nc_var_align_size = 512;nc_in_place_swap=enable;nc_burst_buf=en=able;nc_burst_buf_dirname=;nc_var_align_size=512 1024\n' >defects.pnetcdf
run --syntax pnetcdf --target pnetcdf defects.pnetcdf
check "pnetcdf: 'k = v' (a blank inside) is malformed" matches "^defects\.pnetcdf:1:1: error: malformed entry for --syntax pnetcdf: a blank inside.*\[malformed-line\]$"
check "pnetcdf: a second '=' is malformed" matches "^defects\.pnetcdf:1:49: error: malformed entry for --syntax pnetcdf: .*\[malformed-line\]$"
check "pnetcdf: an empty value is malformed" matches "^defects\.pnetcdf:1:70: error: malformed entry for --syntax pnetcdf: .*\[malformed-line\]$"
check "pnetcdf: 'k=v w' is malformed" matches "^defects\.pnetcdf:1:92: error: malformed entry for --syntax pnetcdf: .*\[malformed-line\]$"
check "pnetcdf: four malformed entries and nothing else" sh -c "[ \$(wc -l <'$out') -eq 4 ] && [ \$(grep -c 'malformed-line' '$out') -eq 4 ]"
printf '*:cb_bufer_size=4:romio_cb_wrte=enable,/scratch/*: cb_nodz=2:oops\nnopattern\n' >s.cray
run --syntax cray s.cray
check "cray: line 1 column 3" \
    line "s.cray:1:3: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "cray: line 1 column 19" matches "^s\.cray:1:19: warning: unknown hint 'romio_cb_wrte'.*\[unknown-key\]$"
check "cray: second group, line 1 column 52 (after a blank)" matches "^s\.cray:1:52: warning: unknown hint 'cb_nodz'; did you mean 'cb_nodes'\? \[unknown-key\]$"
check "cray: a hint without '=' at line 1 column 62" matches "^s\.cray:1:62: error: malformed line for --syntax cray: .*\[malformed-line\]$"
check "cray: a group without a pattern at line 2 column 1" matches "^s\.cray:2:1: error: malformed line for --syntax cray: .*pattern.*\[malformed-line\]$"
check "cray: nothing else" lines 5
printf '*:romio_cb_write=enable:striping_factor=8,/scratch/*:cb_nodes=4\n' >clean.cray
run --syntax cray --target cray-mpich clean.cray
check "cray: a clean MPICH_MPIIO_HINTS text: exit 0, nothing printed" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ]"

# ---------------------------------------------------------------------------------------------
# (3) Exit statuses: 0 nothing found, 1 findings, 2 usage errors and inputs that cannot be read.
printf '# fine\ncb_buffer_size 16777216\nromio_cb_write enable\n' >clean.txt
run clean.txt
check "a clean file: exit 0" exits 0
check "a clean file: no output" silent
run clean.txt codes.txt
check "findings in one of two files: exit 1" exits 1
run --no-such-option clean.txt
check "an unknown option: exit 2" exits 2
check "an unknown option: named on stderr" says "--no-such-option"
run --target nosuch clean.txt
check "an unknown target: exit 2" exits 2
check "an unknown target: stderr names it and the targets" says "--target 'nosuch': no target is named 'nosuch'; the targets are mpi, mpich, openmpi, pnetcdf, cray-mpich"
run --target mpich,nosuch clean.txt
check "an unknown target in a list: exit 2" exits 2
run --syntax yaml clean.txt
check "an unknown syntax: exit 2" exits 2
run --color sometimes clean.txt
check "an unknown --color: exit 2" exits 2
run
check "no FILE: exit 2" exits 2
check "no FILE: says so on stderr" says "no FILE"
run --target mpich
check "no FILE with --target: exit 2" exits 2
run --help
check "--help: exit 0" exits 0
check "--help: names --explain" matches "--explain"
run "$tmp/no-such-file.txt"
check "a missing file: exit 2" exits 2
check "a missing file: stderr names it" says "$tmp/no-such-file.txt: no such file"
mkdir adir
run adir
check "a directory: exit 2" exits 2
check "a directory: stderr names it" says "adir: is a directory"
run /dev/null
check "/dev/null: exit 2" exits 2
check "/dev/null: stderr names it" says "/dev/null: is not a regular file or a FIFO"
printf 'cb_nodes 4\nstriping_unit \0\001\002\n' >binary.dat
run binary.dat
check "a binary file with a NUL: exit 2" exits 2
check "a binary file: stderr names it and the line of the NUL" says "binary.dat: binary data (a NUL byte on line 2)"
check "a binary file: no finding for it" silent
run no-such-file.txt adir binary.dat codes.txt clean.txt
check "unreadable inputs among others: exit 2" exits 2
check "unreadable inputs among others: the other files are still checked" line "codes.txt:1:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "unreadable inputs among others: each named on stderr" sh -c "grep -q 'no-such-file.txt' '$err' && grep -q 'adir' '$err' && grep -q 'binary.dat' '$err'"
if [ "$(id -u)" -ne 0 ]; then
    printf 'cb_nodes 4\n' >unreadable.txt; chmod 000 unreadable.txt
    run unreadable.txt
    check "a file without read permission: exit 2, named" sh -c "[ $rc -eq 2 ] && grep -q 'unreadable.txt: permission denied' '$err'"
fi

# ---------------------------------------------------------------------------------------------
# (4) JSON.
cat >json_check.py <<'PY'
import json, sys
path, want_len = sys.argv[1], int(sys.argv[2])
with open(path) as f:
    data = json.load(f)
assert isinstance(data, list), "not an array"
assert len(data) == want_len, f"{len(data)} objects, expected {want_len}"
fields = ["file", "line", "column", "key", "value", "code", "severity", "message"]
for obj in data:
    assert isinstance(obj, dict), f"not an object: {obj!r}"
    missing = [f for f in fields if f not in obj]
    assert not missing, f"missing {missing} in {obj}"
    assert isinstance(obj["line"], int) and isinstance(obj["column"], int), obj
    assert obj["severity"] in ("error", "warning"), obj
by_code = {obj["code"]: obj for obj in data}
for expected in sys.argv[3:]:
    code, field, value = expected.split("=", 2)
    assert code in by_code, f"no {code} finding"
    got = by_code[code].get(field)
    assert str(got) == value, f"{code}: {field} is {got!r}, expected {value!r}"
PY
run --format json --target mpich codes.txt
check "JSON: exit 1 with findings" exits 1
check "JSON: an array of 4 objects with every field; the suggestion of a near miss and of a unit suffix" \
    "$PYTHON" json_check.py "$out" 4 unknown-key=suggestion=cb_buffer_size unknown-key=key=cb_bufer_size \
    unknown-key=line=1 unknown-key=column=1 unknown-key=file=codes.txt unknown-key=value=4194304 \
    unit-suffix=suggestion=16777216 unit-suffix=value=16m bad-value=line=2 bad-value=suggestion=enable \
    out-of-range=line=4 out-of-range=severity=error
run --format json --target mpich malformed.txt dup.txt trunc.txt
check "JSON: the command's own codes have every field too" "$PYTHON" json_check.py "$out" 8 \
    duplicate-key=key=cb_nodes truncated-input=line=65 malformed-line=file=malformed.txt
run --format json clean.txt
check "JSON with nothing found: exit 0" exits 0
check "JSON with nothing found: an empty array" "$PYTHON" json_check.py "$out" 0
run --format json --target mpich binary.dat codes.txt
check "JSON with an unreadable input: still one valid array of the others' findings" "$PYTHON" json_check.py "$out" 4
check "JSON with an unreadable input: exit 2" exits 2

# ---------------------------------------------------------------------------------------------
# (5) Standard input.
STDIN=codes.txt run --target mpich -
check "'-' reads standard input: exit 1" exits 1
check "'-' reads standard input, labelled <stdin>" \
    line "<stdin>:1:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
STDIN=s.pnetcdf run --syntax pnetcdf -
check "'-' with --syntax pnetcdf" matches "^<stdin>:1:20: warning: unknown hint 'romio_cb_wrte'"
STDIN=clean.txt run -
check "'-' with a clean text: exit 0" exits 0

# ---------------------------------------------------------------------------------------------
# (6) --env: ROMIO_HINTS names a file; PNETCDF_HINTS and MPICH_MPIIO_HINTS hold the hints.
ROMIO_HINTS=$tmp/codes.txt run --env --target mpich
check "--env ROMIO_HINTS: the file it names is checked, exit 1" exits 1
check "--env ROMIO_HINTS: findings labelled with the file" \
    line "$tmp/codes.txt:3:1: error: for mpich: '16m' is read as 16: the 'm' is dropped; 16m is 16777216 [unit-suffix]"
ROMIO_HINTS=$tmp/trunc.txt run --env --target mpich
check "--env ROMIO_HINTS: read as ROMIO reads it (4096 bytes)" matches "\[truncated-input\]$"
ROMIO_HINTS=$tmp/no-such-file.txt run --env
check "--env ROMIO_HINTS naming a missing file: exit 2" exits 2
check "--env ROMIO_HINTS naming a missing file: stderr names it and ROMIO_HINTS" \
    sh -c "grep -q 'no-such-file.txt' '$err' && grep -q 'ROMIO_HINTS' '$err'"
PNETCDF_HINTS='nc_var_align_size=1m;nc_hdr_align_size=4' run --env --target pnetcdf
check "--env PNETCDF_HINTS: exit 1" exits 1
check "--env PNETCDF_HINTS: unit-suffix, labelled PNETCDF_HINTS" \
    line "PNETCDF_HINTS:1:1: error: for pnetcdf: '1m' is read as 1: the 'm' is dropped; 1m is 1048576 [unit-suffix]"
check "--env PNETCDF_HINTS: second entry at column 22" matches "^PNETCDF_HINTS:1:22: warning: unknown hint 'nc_hdr_align_size'"
MPICH_MPIIO_HINTS='*.nc:romio_cb_write=enable:cb_nodez=8' run --env --target cray-mpich
check "--env MPICH_MPIIO_HINTS: exit 1" exits 1
check "--env MPICH_MPIIO_HINTS: read as the cray syntax, column 28" \
    line "MPICH_MPIIO_HINTS:1:28: warning: unknown hint 'cb_nodez'; did you mean 'cb_nodes'? [unknown-key]"
MPICH_MPIIO_HINTS='*:romio_cb_write=enable' PNETCDF_HINTS='nc_var_align_size=1048576' ROMIO_HINTS=$tmp/clean.txt run --env
check "--env with three clean variables: exit 0" exits 0
check "--env with three clean variables: no output" silent
run --env
check "--env with none of the variables set: exit 0" exits 0
PNETCDF_HINTS='nc_var_align_size=4k' run --env --target pnetcdf codes.txt
check "--env and a FILE: both checked" sh -c "grep -q '^PNETCDF_HINTS:1:1:' '$out' && grep -q '^codes.txt:1:1:' '$out'"

# ---------------------------------------------------------------------------------------------
# (7) --list and --explain.
vocabulary=$repo/data/hints.json
keys=$("$PYTHON" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["keys"]))' "$vocabulary")
mpich_keys=$("$PYTHON" -c 'import json,sys; print(sum(any(r["target"] == "mpich" for r in k["readers"]) for k in json.load(open(sys.argv[1]))["keys"]))' "$vocabulary")
run --list
check "--list: exit 0" exits 0
check "--list: one line per key of data/hints.json ($keys)" lines "$keys"
check "--list: cb_buffer_size with its type" matches "^cb_buffer_size +size +"
run --list mpich
check "--list mpich: exit 0" exits 0
check "--list mpich: one line per key mpich reads ($mpich_keys)" lines "$mpich_keys"
check "--list mpich: no key without mpich among its readers" sh -c "[ -s '$out' ] && ! awk '{print \$3}' '$out' | grep -vE '(^|,)mpich(,|\$)'"
check "--list mpich: a ROMIO key is there" matches "^romio_cb_write "
check "--list mpich: a key mpich does not read (collective_buffering) is not there" sh -c "[ -s '$out' ] && ! grep -q '^collective_buffering ' '$out'"
run --list nosuch
check "--list nosuch: exit 2" exits 2
check "--list nosuch: stderr names it and the targets" says "no target 'nosuch' (targets: mpi, mpich, openmpi, pnetcdf, cray-mpich)"
run --list --format json
check "--list --format json: an array of every key with its fields" "$PYTHON" -c '
import json, sys
data = json.load(open(sys.argv[1]))
assert isinstance(data, list) and len(data) == int(sys.argv[2]), len(data)
for obj in data:
    for field in ("key", "type", "objects", "targets", "summary"):
        assert field in obj, (field, obj)
' "$out" "$keys"
run --explain cb_buffer_size
check "--explain cb_buffer_size: exit 0" exits 0
check "--explain cb_buffer_size: the key, its type and range" sh -c "grep -q '^cb_buffer_size: ' '$out' && grep -qE '^  type: +size' '$out'"
check "--explain cb_buffer_size: ROMIO's source path" matches "source: src/mpi/romio/adio/common/ad_hints\.c"
check "--explain cb_buffer_size: the source of every reader in data/hints.json" "$PYTHON" -c '
import json, sys
entry = next(k for k in json.load(open(sys.argv[1]))["keys"] if k["key"] == "cb_buffer_size")
text = open(sys.argv[2]).read()
missing = [(r["target"], r["source"]) for r in entry["readers"] if "source: " + r["source"] not in text]
assert len(entry["readers"]) >= 3 and not missing, missing
' "$vocabulary" "$out"
run --explain cb_bufer_size
check "--explain of a misspelled key: exit 2" exits 2
check "--explain of a misspelled key: suggests the right one" says "did you mean 'cb_buffer_size'?"
run --explain no_such_hint_anywhere_xyz
check "--explain of an unknown key: exit 2, named" sh -c "[ $rc -eq 2 ] && grep -q 'no_such_hint_anywhere_xyz' '$err'"
run --explain cb_buffer_size --format json
check "--explain --format json: the entry with each reader's source" "$PYTHON" -c '
import json, sys
entry = next(k for k in json.load(open(sys.argv[1]))["keys"] if k["key"] == "cb_buffer_size")
got = json.load(open(sys.argv[2]))
assert got["key"] == "cb_buffer_size" and got["type"] == "size", got
assert [r["source"] for r in got["readers"]] == [r["source"] for r in entry["readers"]]
assert [r["target"] for r in got["readers"]] == [r["target"] for r in entry["readers"]]
' "$vocabulary" "$out"
run --explain stripe_size
check "--explain of an alias names its canonical key" matches "another name of: striping_unit"

# ---------------------------------------------------------------------------------------------
# (8) Colour: only with --color always, or on a terminal without NO_COLOR.
esc=$(printf '\033')
has_escapes() { grep -q "$esc\[" "$1" || { echo "no escape sequence"; return 1; }; }
no_escapes() { ! grep -q "$esc" "$1" || { echo "escape sequences:"; cat -v "$1"; return 1; }; }
run --color always codes.txt
check "--color always: escapes" has_escapes "$out"
check "--color always: a warning in gcc's magenta" matches "${esc}\[1;35mwarning:"
run codes.txt
check "default to a pipe: no escapes" no_escapes "$out"
NO_COLOR=1 run --color auto codes.txt
check "NO_COLOR=1 --color auto: no escapes" no_escapes "$out"
if command -v script >/dev/null 2>&1; then
    script -qec "'$LINT' codes.txt" /dev/null >tty.out 2>&1 </dev/null
    check "on a terminal (script): escapes by default" has_escapes tty.out
    NO_COLOR=1 script -qec "'$LINT' --color auto codes.txt" /dev/null >tty.out 2>&1 </dev/null
    check "on a terminal with NO_COLOR=1: no escapes" no_escapes tty.out
    script -qec "'$LINT' --color never codes.txt" /dev/null >tty.out 2>&1 </dev/null
    check "on a terminal with --color never: no escapes" no_escapes tty.out
    check "on a terminal with --color never: the findings all the same" grep -q "cb_bufer_size" tty.out
else
    echo "script is missing: the terminal colour checks are skipped (Debian package bsdutils)"
fi

# ---------------------------------------------------------------------------------------------
# (9) Bad input: no crash, no hang, bounded memory.
"$PYTHON" -c 'import sys; open(sys.argv[1], "w").write("cb_nodes " + "4" * (5 << 20) + "\n")' line5m.txt
STDIN=/dev/null last="timeout 20 mpi-info-lint line5m.txt"
timeout 20 "$LINT" line5m.txt >"$out" 2>"$err"; rc=$?
check "a 5 MB line: a finding (exit 1), in time" exits 1
check "a 5 MB line: malformed (a value past 1023 characters)" matches "^line5m\.txt:1:1: error: malformed line for --syntax romio: a value longer than 1023 characters"
check "a 5 MB line: truncated at byte 4097" matches "^line5m\.txt:1:4097: error: .*\[truncated-input\]$"
check "a 5 MB line: no crash" no_crash
"$PYTHON" -c 'import sys; open(sys.argv[1], "w").write("k" * (5 << 20))' key5m.txt
timeout 20 "$LINT" --syntax kv key5m.txt >"$out" 2>"$err"; rc=$?; last="timeout 20 mpi-info-lint --syntax kv key5m.txt"
check "a 5 MB line without a line end (kv): exit 1, no crash" sh -c "[ $rc -eq 1 ] && ! grep -qi panicked '$err'"
timeout 20 "$LINT" --syntax pnetcdf key5m.txt >"$out" 2>"$err"; rc=$?; last="timeout 20 mpi-info-lint --syntax pnetcdf key5m.txt"
check "a 5 MB entry (pnetcdf): exit 1, no crash" sh -c "[ $rc -eq 1 ] && ! grep -qi panicked '$err'"
timeout 20 "$LINT" --syntax cray key5m.txt >"$out" 2>"$err"; rc=$?; last="timeout 20 mpi-info-lint --syntax cray key5m.txt"
check "a 5 MB group (cray): exit 1, no crash" sh -c "[ $rc -eq 1 ] && ! grep -qi panicked '$err'"

if command -v mkfifo >/dev/null 2>&1; then
    mkfifo with-writer.fifo no-writer.fifo
    # The writer holds the FIFO open across a pause: the command reads until it closes it.
    ( exec 3>with-writer.fifo; printf 'cb_nodes 4\n' >&3; sleep 1; printf 'cb_bufer_size 4\n' >&3 ) &
    writer=$!
    # Start the command once the writer waits in its open for a reader (Linux shows it in
    # wchan; elsewhere, after 5 seconds): a FIFO without a writer would read as empty.
    for _ in $(seq 50); do
        [ "$(cat "/proc/$writer/wchan" 2>/dev/null)" = wait_for_partner ] && break
        sleep 0.1
    done
    timeout 10 "$LINT" with-writer.fifo >"$out" 2>"$err"; rc=$?; last="timeout 10 mpi-info-lint with-writer.fifo"
    # A command that never opened the FIFO leaves the writer blocked in its open: end it.
    kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null; writer=
    check "a FIFO with a writer: read whole (the line written after a pause), exit 1" exits 1
    check "a FIFO with a writer: the finding on its second line" \
        line "with-writer.fifo:2:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
    start=$SECONDS
    timeout 10 "$LINT" no-writer.fifo >"$out" 2>"$err"; rc=$?; last="timeout 10 mpi-info-lint no-writer.fifo"
    check "a FIFO without a writer: returns at once (no timeout), exit 0 or 2" sh -c "[ $rc -eq 0 ] || [ $rc -eq 2 ]"
    check "a FIFO without a writer: within 5 seconds" test $((SECONDS - start)) -le 5
    timeout 10 "$LINT" no-writer.fifo codes.txt >"$out" 2>"$err"; rc=$?; last="timeout 10 mpi-info-lint no-writer.fifo codes.txt"
    check "a FIFO without a writer, then a file: the file is checked" matches "^codes\.txt:1:1: "
else
    echo "mkfifo is missing: the FIFO checks are skipped"
fi

head -c $(((16 << 20) + 1)) /dev/zero | tr '\0' '#' >over16m.txt
run over16m.txt
check "a file over 16 MiB: exit 2" exits 2
check "a file over 16 MiB: refused with a message naming it" says "over16m.txt: is larger than 16 MiB"
check "a file over 16 MiB: no crash" no_crash
head -c $((16 << 20)) /dev/zero | tr '\0' '#' >at16m.txt
run --syntax kv at16m.txt
check "a file of exactly 16 MiB (one comment line) is read: exit 0" exits 0
rm -f over16m.txt at16m.txt line5m.txt key5m.txt
if [ -r /dev/zero ]; then
    # Standard input without an end: read up to the limit, then refused.
    last="mpi-info-lint - </dev/zero"
    timeout 20 "$LINT" - </dev/zero >"$out" 2>"$err"; rc=$?
    check "an endless standard input (/dev/zero): refused, exit 2, in time" sh -c "[ $rc -eq 2 ] && grep -q '<stdin>' '$err'"
fi

# ---------------------------------------------------------------------------------------------
# (10) --vocabulary: a layered library's keys added to the built-in vocabulary.
cat >mylib.json <<'JSON'
{
  "format": "mpi-info-hints",
  "version": 1,
  "targets": [
    {"name": "mylib", "title": "MyLib 1.0 (a layered I/O library of this test)", "read": "tests-lint/lint_test.sh"}
  ],
  "keys": [
    {"key": "mylib_compression", "objects": ["file"], "type": "enum", "values": ["none", "zstd", "lz4"],
     "summary": "Compression of the data MyLib writes",
     "readers": [{"target": "mylib", "parse": "words", "accepts": ["none", "zstd", "lz4"], "source": "mylib/src/hints.c"}]}
  ]
}
JSON
printf 'mylib_compression zstd\ncb_buffer_size 16777216\n' >mylib-good.txt
printf 'mylib_compression gzip\n' >mylib-bad.txt
run mylib-good.txt
check "without --vocabulary, the layered key is unknown" matches "^mylib-good\.txt:1:1: warning: unknown hint 'mylib_compression'.*\[unknown-key\]$"
run --vocabulary mylib.json mylib-good.txt
check "--vocabulary: the added key is known (exit 0)" exits 0
check "--vocabulary: no output" silent
run --vocabulary mylib.json mylib-bad.txt
check "--vocabulary: a wrong value of the added key is bad-value" \
    line "mylib-bad.txt:1:1: error: for mylib: 'gzip' is not one of none, zstd, lz4 (spelled exactly) [bad-value]"
printf 'mylib_compression lz4\n' >mylib-only.txt
run --vocabulary mylib.json --target mylib mylib-only.txt
check "--vocabulary: its target can be named" exits 0
run --vocabulary mylib.json --target mylib mylib-good.txt
check "--vocabulary, --target mylib: a built-in key is not read by mylib (a note: the MPI's)" \
    matches "^mylib-good\.txt:2:1: note: 'cb_buffer_size' is not read by mylib; .*\[not-read-by-target\]$"
run --vocabulary mylib.json --list mylib
check "--vocabulary with --list mylib: its one key" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$out') -eq 1 ] && grep -q '^mylib_compression ' '$out'"
run --vocabulary mylib.json --explain mylib_compression
check "--vocabulary with --explain: its source" matches "source: mylib/src/hints\.c"
printf '{"format": "mpi-info-hints", "version": 1, "targets": [\n' >broken.json
run --vocabulary broken.json clean.txt
check "a broken vocabulary: exit 2" exits 2
check "a broken vocabulary: stderr names the file" says "broken.json: not a vocabulary"
printf '{"format": "mpi-info-hints", "version": 1, "targets": [], "keys": [{"key": "k", "objects": ["file"], "type": "int", "summary": "s", "readers": [{"target": "nosuch", "parse": "atoi", "source": "x"}]}]}\n' >badref.json
run --vocabulary badref.json clean.txt
check "a vocabulary naming an unknown target: exit 2, naming the file" sh -c "[ $rc -eq 2 ] && grep -q 'badref.json' '$err'"
run --vocabulary no-such-vocabulary.json clean.txt
check "a missing vocabulary: exit 2, naming the file" sh -c "[ $rc -eq 2 ] && grep -q 'no-such-vocabulary.json: no such file' '$err'"
run --vocabulary binary.dat clean.txt
check "a binary vocabulary: exit 2, naming the file" sh -c "[ $rc -eq 2 ] && grep -q 'binary.dat' '$err'"
cd "$repo"

# ---------------------------------------------------------------------------------------------
# (11) Hostile inputs: file names, keys, values and vocabulary text holding ESC, BEL, a line end
# and bytes that are not UTF-8; standard input and output closed; a closed pipe and a full
# device; columns after a byte-order mark; JSON of a million findings in bounded memory.
# Text output and messages show such bytes escaped (no raw control byte reaches a terminal) and
# never cut a name; JSON keeps them, each byte that is not UTF-8 as the lone surrogate \udcNN,
# which Python's json.loads and os.fsencode turn back into the bytes.
cd "$tmp"
cat >bytes_check.py <<'PY'
import json, os, sys, unicodedata
def clean(path):
    """Valid UTF-8 with no control character but the line ends."""
    data = open(path, "rb").read()
    text = data.decode("utf-8")  # raises on a byte that is not UTF-8
    bad = [hex(ord(c)) for c in text if unicodedata.category(c) == "Cc" and c != "\n"]
    assert not bad, f"{path}: raw control characters {bad}"
mode = sys.argv[1]
if mode == "clean":
    for path in sys.argv[2:]:
        clean(path)
elif mode == "json":  # json FILE FIELD=BYTES...: the first object's fields, back to bytes
    data = json.load(open(sys.argv[2]))
    assert isinstance(data, list) and data, data
    for spec in sys.argv[3:]:
        field, want = spec.split("=", 1)
        got = os.fsencode(data[0][field])
        assert got == os.fsencode(want), f"{field}: {got!r}, expected {os.fsencode(want)!r}"
PY
clean() { "$PYTHON" bytes_check.py clean "$out" "$err"; }
esc=$(printf '\033'); bel=$(printf '\007'); nl=$'\n'; ff=$(printf '\377')
# A name with ESC, BEL and a line end, and one with a byte that is not UTF-8 as well.
name="h${esc}[31m${bel}${nl}x.txt"
bytes_name="h${esc}[31m${bel}${nl}x${ff}.txt"
printf 'cb_bufer_size 4\n' >"$name"
printf 'cb_bufer_size 4\n' >"$bytes_name"
run "$name"
check "a file name with ESC, BEL and a line end: checked (exit 1)" exits 1
check "a file name with ESC, BEL and a line end: shown escaped, on one line" \
    line "h\\u{1b}[31m\\u{7}\\nx.txt:1:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "a file name with ESC, BEL and a line end: no raw control byte on stdout or stderr" clean
run "$bytes_name"
check "a file name that is not UTF-8: read (exit 1)" exits 1
check "a file name that is not UTF-8: shown escaped, whole" \
    line "h\\u{1b}[31m\\u{7}\\nx\\xff.txt:1:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "a file name that is not UTF-8: no raw control byte or invalid UTF-8 in the output" clean
run --format json "$bytes_name"
check "a file name that is not UTF-8, JSON: exit 1" exits 1
check "a file name that is not UTF-8, JSON: parses, and os.fsencode gives the name back" \
    "$PYTHON" bytes_check.py json "$out" "file=$bytes_name"
check "a file name that is not UTF-8, JSON: the byte as \\udcff" grep -qF '"file": "h\u001b[31m\u0007\nx\udcff.txt"' "$out"
run "$tmp/no-such-$bytes_name"
check "a missing file with such a name: exit 2" exits 2
check "a missing file with such a name: stderr names it escaped and whole" \
    says "mpi-info-lint: $tmp/no-such-h\\u{1b}[31m\\u{7}\\nx\\xff.txt: no such file"
check "a missing file with such a name: no raw control byte on stderr" clean
ROMIO_HINTS=$tmp/$bytes_name run --env
check "ROMIO_HINTS naming a file whose name is not UTF-8: the file is read (exit 1)" exits 1
check "ROMIO_HINTS naming a file whose name is not UTF-8: its findings, the name escaped" \
    matches "^$tmp/h\\\\u\\{1b\\}\\[31m\\\\u\\{7\\}\\\\nx\\\\xff\\.txt:1:1: warning: unknown hint 'cb_bufer_size'"
ROMIO_HINTS=$tmp/$bytes_name run --env --format json
check "ROMIO_HINTS naming a file whose name is not UTF-8, JSON: os.fsencode gives the path back" \
    "$PYTHON" bytes_check.py json "$out" "file=$tmp/$bytes_name"
run --vocabulary "$tmp/no-such-$bytes_name.json" clean.txt
check "a missing --vocabulary file whose name is not UTF-8: exit 2, named escaped" \
    sh -c "[ $rc -eq 2 ] && grep -qF 'no-such-h\\u{1b}[31m\\u{7}\\nx\\xff.txt.json: no such file' '$err'"
check "a missing --vocabulary file whose name is not UTF-8: no raw control byte on stderr" clean

# A key and a value with ESC, BEL and a byte that is not UTF-8, in each syntax.
printf 'cb_\033[31m\007\377x v\033\007\376\ncb_\033[31m\007\377x w\n' >hostile-pair.txt
run hostile-pair.txt
check "a hostile key: exit 1" exits 1
check "a hostile key: unknown, quoted with its bytes escaped" \
    line "hostile-pair.txt:1:1: warning: unknown hint 'cb_\\u{1b}[31m\\u{7}\\xffx': no vocabulary has it [unknown-key]"
check "a hostile key given twice: the duplicate quoted with its bytes escaped" \
    line "hostile-pair.txt:2:1: warning: 'cb_\\u{1b}[31m\\u{7}\\xffx' is given again (first on line 1); the reader uses the first [duplicate-key]"
check "a hostile key and value: no raw control byte on stdout or stderr" clean
run --format json hostile-pair.txt
check "a hostile key and value, JSON: os.fsencode gives the key's and the value's bytes back" \
    "$PYTHON" bytes_check.py json "$out" "key=cb_${esc}[31m${bel}${ff}x" "value=v${esc}${bel}$(printf '\376')"
check "a hostile key given twice, JSON: the duplicate's key is the bytes too" "$PYTHON" -c '
import json, os, sys
dup = [o for o in json.load(open(sys.argv[1])) if o["code"] == "duplicate-key"]
assert len(dup) == 1 and os.fsencode(dup[0]["key"]) == b"cb_\x1b[31m\x07\xffx" and dup[0]["value"] is None, dup
' "$out"
# A right-to-left override in a key would make the terminal show the rest of the line reversed.
printf 'cb_nodes\342\200\256x 1\n' >bidi-key.txt
run bidi-key.txt
check "a key with a right-to-left override: shown escaped, in the order it is" \
    line "bidi-key.txt:1:1: warning: unknown hint 'cb_nodes\\u{202e}x': no vocabulary has it [unknown-key]"
check "a key with a right-to-left override: no raw U+202E on stdout" sh -c "! grep -qF '$(printf '\342\200\256')' '$out'"
printf 'romio_cb_write en\033able\377\n' >hostile-value.txt
run --target mpich --format json hostile-value.txt
check "a hostile value of a known key, JSON: bad-value with the value's bytes" \
    "$PYTHON" bytes_check.py json "$out" "code=bad-value" "value=en${esc}able${ff}"
run --target mpich hostile-value.txt
check "a hostile value of a known key: no raw control byte on stdout" clean
STDIN=hostile-pair.txt run --syntax kv -
check "a hostile line read as kv: no raw control byte on stdout or stderr" sh -c "[ $rc -eq 1 ] && '$PYTHON' bytes_check.py clean '$out' '$err'"
PNETCDF_HINTS="k${esc}]0;x${bel}=1${ff};nc_var_align_size=1${esc}" MPICH_MPIIO_HINTS="*${esc}:cb${bel}=${ff}" run --env
check "hostile PNETCDF_HINTS and MPICH_MPIIO_HINTS: findings (exit 1), no raw control byte" \
    sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$out') -ge 3 ] && '$PYTHON' bytes_check.py clean '$out' '$err'"
run --explain "x${esc}]0;title${bel}${ff}"
check "--explain of a hostile key: exit 2, the key escaped on stderr" \
    sh -c "[ $rc -eq 2 ] && grep -qF 'x\\u{1b}]0;title\\u{7}\\xff' '$err'"
check "--explain of a hostile key: no raw control byte on stderr" clean
run --syntax "x${esc}[2J" clean.txt
check "an unknown --syntax with ESC: exit 2, clap's message escaped" sh -c "[ $rc -eq 2 ] && grep -qF 'x\\u{1b}[2J' '$err'"
check "an unknown --syntax with ESC: no raw control byte on stderr" clean

# A --vocabulary whose text holds ESC, BEL, line ends and a C1 control where a document may
# (its words, sources, how): --list, --explain and the findings show it escaped; JSON keeps it
# exactly. A one-line field (title, summary, message) with a control character is refused.
cat >hostile-vocabulary.json <<'JSON'
{"format": "mpi-info-hints", "version": 1,
 "targets": [{"name": "evil", "title": "Evil title", "read": "r\u0007"}],
 "keys": [{"key": "evil_key", "objects": ["file"], "type": "enum", "values": ["on\u001b[31m", "off"],
   "summary": "plain summary",
   "readers": [{"target": "evil", "parse": "words", "accepts": ["on\u001b[31m", "off"],
                "source": "src/\u001b[1mhints.c", "how": "h\u0007ow\nx", "otherwise": "ignored\u001b[0m"}]}]}
JSON
run --vocabulary hostile-vocabulary.json --list evil
check "a hostile vocabulary, --list: one line" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$out') -eq 1 ]"
check "a hostile vocabulary, --list: no raw control byte" clean
run --vocabulary hostile-vocabulary.json --explain evil_key
check "a hostile vocabulary, --explain: its how and source escaped" \
    sh -c "grep -qxF '        how: h\\u{7}ow\\nx' '$out' && grep -qxF '        source: src/\\u{1b}[1mhints.c' '$out'"
check "a hostile vocabulary, --explain: no raw control byte" clean
printf 'evil_key maybe\n' >evil.txt
run --vocabulary hostile-vocabulary.json --target evil evil.txt
check "a hostile vocabulary, a finding: its text in the message escaped" \
    line "evil.txt:1:1: error: for evil: 'maybe' is not one of on\\u{1b}[31m, off (spelled exactly); otherwise it is ignored\\u{1b}[0m [bad-value]"
check "a hostile vocabulary, a finding: no raw control byte" clean
run --vocabulary hostile-vocabulary.json --explain evil_key --format json
check "a hostile vocabulary, --explain --format json: the words exactly" "$PYTHON" -c '
import json, sys
got = json.load(open(sys.argv[1]))["readers"][0]["accepts"][0]
assert got == "on\x1b[31m", repr(got)
' "$out"
for field in title summary; do
    sed "s/\"$field\": \"[^\"]*\"/\"$field\": \"ESC\\\\u001b[31m NL\\\\nforged\"/" hostile-vocabulary.json >one-line-$field.json
    run --vocabulary one-line-$field.json --list
    check "a vocabulary whose $field holds a line break: refused (exit 2), named, where" \
        sh -c "[ $rc -eq 2 ] && grep -q '^mpi-info-lint: one-line-$field.json: not a vocabulary: .*\"$field\" holds a line break' '$err'"
    check "a vocabulary whose $field holds a line break: no raw control byte on stderr" clean
done
printf '{"format": "mpi-info-hints", "version": 1, "targets": [], "keys": [{"key": "k", "summary": "s\377\033"}]}' >bytes-vocabulary.json
run --vocabulary bytes-vocabulary.json clean.txt
check "a vocabulary whose summary is not UTF-8: refused (exit 2), named" \
    sh -c "[ $rc -eq 2 ] && grep -q '^mpi-info-lint: bytes-vocabulary.json: not a vocabulary' '$err'"
check "a vocabulary whose summary is not UTF-8: no raw control byte on stderr" clean

# Standard input and output closed, a closed pipe, a full device.
last="mpi-info-lint - <&-"
"$LINT" - <&- >"$out" 2>"$err"; rc=$?
check "a closed standard input: exit 2" exits 2
check "a closed standard input: said on stderr" says "mpi-info-lint: <stdin>: standard input is closed"
last="mpi-info-lint codes.txt >&-"
"$LINT" codes.txt </dev/null >&- 2>"$err"; rc=$?; : >"$out"
check "a closed standard output with findings to write: exit 2" exits 2
check "a closed standard output: said on stderr" says "mpi-info-lint: standard output: bad file descriptor"
"$PYTHON" -c 'import sys; open(sys.argv[1], "w").write("cb_bufer_size 4\n" * 100000)' many.txt
for format in text json; do
    last="mpi-info-lint --format $format many.txt | head -n 1"
    "$LINT" --format "$format" many.txt 2>"$err" </dev/null | head -n 1 >"$out"; rc=${PIPESTATUS[0]}
    check "a closed pipe ($format, | head -n 1): the lint ends with exit 0" exits 0
    check "a closed pipe ($format, | head -n 1): no message" no_stderr
    check "a closed pipe ($format, | head -n 1): head had its line" lines 1
done
if [ -w /dev/full ]; then
    last="mpi-info-lint codes.txt >/dev/full"
    "$LINT" codes.txt </dev/null >/dev/full 2>"$err"; rc=$?; : >"$out"
    check "output to /dev/full: exit 2" exits 2
    check "output to /dev/full: said on stderr" says "mpi-info-lint: standard output: no space left on device"
    "$LINT" --format json clean.txt </dev/null >/dev/full 2>"$err"; rc=$?
    check "JSON output ([]) to /dev/full: exit 2 with the message" \
        sh -c "[ $rc -eq 2 ] && grep -q 'standard output: no space left on device' '$err'"
    "$LINT" --list </dev/null >/dev/full 2>"$err"; rc=$?
    check "--list to /dev/full: exit 2 with the message" \
        sh -c "[ $rc -eq 2 ] && grep -q 'standard output: no space left on device' '$err'"
fi

# Columns count bytes from the line's start, a byte-order mark's three included.
printf '\357\273\277cb_bufer_size 4\n' >bom-key.txt
run bom-key.txt
check "after a byte-order mark the first key is at column 4" \
    line "bom-key.txt:1:4: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "a byte-order mark itself is at column 1" matches "^bom-key\.txt:1:1: error: a UTF-8 byte-order mark"
printf '\357\273\277  cb_bufer_size=4\ncb_nodez=4\n' >bom-key.kv
run --syntax kv bom-key.kv
check "after a byte-order mark and two blanks (kv): column 6; the next line from 1" \
    sh -c "grep -q '^bom-key.kv:1:6: warning: unknown hint .cb_bufer_size.' '$out' && grep -q '^bom-key.kv:2:1: warning: unknown hint .cb_nodez.' '$out'"

# Each input's findings are written before the next input is read: with both streams in one,
# a file's findings come before the message about a missing file named after it.
last="mpi-info-lint codes.txt no-such-file.txt 2>&1"
"$LINT" codes.txt no-such-file.txt </dev/null >"$out" 2>&1; rc=$?; : >"$err"
check "findings of one input come before the message about the next" \
    sh -c "[ $rc -eq 2 ] && head -n 1 '$out' | grep -q '^codes.txt:1:1: ' && tail -n 1 '$out' | grep -qx 'mpi-info-lint: no-such-file.txt: no such file'"

# --format json writes each finding as it comes: a million findings (one line each, 16 MB of
# input) take no more memory than the text output, far less than the whole array held at once
# (which took 1.7 GB). The peak resident size of each run, from getrusage of the child.
cat >peak_rss.py <<'PY'
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    status = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=out).returncode
print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PY
"$PYTHON" -c 'import sys; open(sys.argv[1], "w").write("cb_bufer_size 4\n" * 1000000)' million.txt
read -r text_rc text_mb < <("$PYTHON" peak_rss.py million.out "$LINT" million.txt)
read -r json_rc json_mb < <("$PYTHON" peak_rss.py million.json "$LINT" --format json million.txt)
check "a million findings, text: exit 1, one line each" \
    sh -c "[ '$text_rc' = 1 ] && [ \$(wc -l <million.out) -eq 1000001 ]"
check "a million findings, JSON: exit 1, under 400 MB ($json_mb MB)" sh -c "[ '$json_rc' = 1 ] && [ '$json_mb' -lt 400 ]"
check "a million findings, JSON: no more memory than text ($json_mb MB, text $text_mb MB)" \
    sh -c "[ '$json_mb' -le \$(( $text_mb + $text_mb / 10 )) ]"
check "a million findings, JSON: one valid array of every finding, in order" "$PYTHON" -c '
import json, sys
data = json.load(open(sys.argv[1]))
assert len(data) == 1000001, len(data)
assert data[0]["code"] == "unknown-key" and data[-1]["line"] == 1000000, (data[0], data[-1])
' million.json
rm -f million.txt million.out million.json many.txt
cd "$repo"

# ---------------------------------------------------------------------------------------------
# (11b) Releases and severities: --target NAME@RELEASE (a release, a series, main), the
# verdicts of the releases named, notes that never make the status 1.
cd "$tmp"
printf 'collective_buffering true\n' >cb.txt
run --target openmpi@4.1.4 cb.txt
check "openmpi@4.1.4 reads collective_buffering=true inverted: an error" \
    matches "^cb\.txt:1:1: error: for openmpi 4.1.4: 'true' turns it off.*\[bad-value\]$"
check "openmpi@4.1.4: exit 1" exits 1
run --target openmpi@5.0 cb.txt
check "openmpi@5.0 (a series): the finding names the releases it holds for" \
    matches "^cb\.txt:1:1: error: for openmpi 5\.0\.0 to 5\.0\.9: 'true' turns it off"
run --target openmpi cb.txt
check "openmpi (its newest release, 5.0.10, fixed): nothing" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ]"
run --target openmpi@main cb.txt
check "openmpi@main: nothing" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ]"
printf 'start_iodevice 2\n' >iodevice.txt
run --target mpich@4.0.2 iodevice.txt
check "mpich@4.0.2: start_iodevice is not read, the old spelling is suggested" \
    line "iodevice.txt:1:1: warning: 'start_iodevice' is not read by mpich 4.0.2; mpich 4.0.2 reads it as 'romio_lustre_start_iodevice' [not-read-by-target]"
run --target mpich@4.0.2 --format json iodevice.txt
check "the JSON of a finding has its severity and suggestion" "$PYTHON" -c '
import json, sys
f = json.load(open(sys.argv[1]))[0]
assert f["severity"] == "warning" and f["suggestion"] == "romio_lustre_start_iodevice", f
' "$out"
run --target mpich@9.1.2 iodevice.txt
check "a release newer than the newest known: read as the newest, with a note on stderr" \
    sh -c "[ $rc -eq 0 ] && grep -qF 'mpi-info-lint: note: mpich@9.1.2 is newer than its newest release known here, which is used (5.0.1)' '$err'"
run --target mpich@1.0 iodevice.txt
check "a release older than the oldest known: read as the oldest, with a note" says "mpich@1.0 is older than its oldest release known here, which is used (3.4.0)"
run --target mpich@four iodevice.txt
check "a release that is not a version: a usage error (exit 2), named" \
    sh -c "[ $rc -eq 2 ] && grep -qF \"mpi-info-lint: --target 'mpich@four': 'mpich@four': a release is main or numbers\" '$err'"
run --target mpi@4.1 iodevice.txt
check "a release of a target described without releases: exit 2" exits 2
printf 'no_locks 2\n' >note.txt
run --target openmpi note.txt
check "a note: printed as note:, exit 0" \
    sh -c "[ $rc -eq 0 ] && grep -qE \"^note\\.txt:1:1: note: for openmpi .*'2' is read as true.*\\[unusual-spelling\\]$\" '$out'"
printf 'nc_header_align_size 1048576\nnc_var_align_size 4096\n' >align.txt
run --target pnetcdf@1.12.3 align.txt
check "pnetcdf@1.12.3 reads the two alignments independently: no conflict" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ]"
run --target pnetcdf@1.15.0 align.txt
check "pnetcdf@1.15.0: nc_var_align_size supersedes the other, and they differ: a conflict" only_codes conflict
printf 'nc_header_align_size 4096\nnc_var_align_size 4096\n' >align-equal.txt
run --target pnetcdf@1.15.0 align-equal.txt
check "pnetcdf@1.15.0 with equal alignments: no conflict" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ]"
run --explain collective_buffering
check "--explain names each reader's releases and parser" \
    sh -c "grep -qF 'releases: 4.1.0 to 4.1.8' '$out' && grep -qF 'openmpi: strncmp_prefix:' '$out' && grep -qF 'inverted:' '$out'"
cd "$repo"

# ---------------------------------------------------------------------------------------------
# (12) The example hint sets of the documentation: no finding. Each file of tests-lint/examples
# says where it comes from and, in a "# lint:" line, the options it is checked with. PNETCDF_HINTS
# has no comments, so the comment lines of a pnetcdf example are dropped and the rest read from
# standard input. A "# known-finding: CODE" line marks a set left out of the must-pass set (the
# file says why); it must still give exactly that code, so that whoever fixes the cause moves it
# back.
examples=0
for example in tests-lint/examples/*.txt; do
    name=${example#tests-lint/examples/}
    read -r -a options <<<"$(sed -n 's/^# lint: //p' "$example")"
    known=$(sed -n 's/^# known-finding: \([a-z-]*\).*/\1/p' "$example")
    check "$name: has a '# lint:' line and says where it comes from" \
        sh -c "[ ${#options[@]} -gt 0 ] && grep -qE '^# From [^ ]+/[^ ]+ [0-9a-f]{40}( |\$)' '$example'"
    case " ${options[*]} " in
        *" --syntax pnetcdf "*) grep -v '^#' "$example" >"$tmp/example"; STDIN=$tmp/example run "${options[@]}" - ;;
        *) run "${options[@]}" "$example" ;;
    esac
    if [ -n "$known" ]; then
        check "$name (known finding, not in the must-pass set): still only $known" \
            sh -c "[ $rc -eq 1 ] && [ \"\$(sed -nE 's/.* \[([a-z-]+)\]\$/\1/p' '$out' | sort -u)\" = '$known' ]"
    else
        examples=$((examples + 1))
        check "$name: no finding with ${options[*]}" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ] && [ ! -s '$err' ]"
        # And for the releases installed here, which people run (notes allowed: exit 0). Open
        # MPI's page is left out: 4.1.4 reads its collective_buffering=true inverted, truly.
        case " ${options[*]} " in
            *openmpi*) ;;
            *)
                released=("${options[@]}")
                for i in "${!released[@]}"; do
                    [ "${released[$i]}" = --target ] || continue
                    released[i+1]=$(sed -E 's/(^|,)pnetcdf(,|$)/\1pnetcdf@1.12.3\2/; s/(^|,)mpich(,|$)/\1mpich@4.0.2\2/' <<<"${released[i+1]}")
                done
                case " ${options[*]} " in
                    *" --syntax pnetcdf "*) STDIN=$tmp/example run "${released[@]}" - ;;
                    *) run "${released[@]}" "$example" ;;
                esac
                check "$name: no error or warning with ${released[*]}" \
                    sh -c "[ $rc -eq 0 ] && ! grep -qE ': (error|warning): ' '$out' && [ ! -s '$err' ]"
                ;;
        esac
    fi
done
check "at least 12 example sets must pass" test "$examples" -ge 12
# Every hint the same documentation lists (most without a value to try) is one the
# implementation reads, by --list TARGET. Left out: romio_lustre_cb_ds_threshold, which the ROMIO
# Users Guide ("Hints for Lustre") documents but nothing reads (ROMIO reads romio_cb_ds_threshold,
# src/mpi/romio/adio/common/ad_hints.c); pfs_svr_buf (src/mpi/romio/README, Intel PFS, removed).
documented_keys_read() { # TARGET KEY...
    local target=$1 key missing=; shift
    "$LINT" --list "$target" >"$tmp/list" || return 1
    for key in "$@"; do grep -q "^$key " "$tmp/list" || missing="$missing $key"; done
    [ -z "$missing" ] || { echo "not read by $target:$missing"; return 1; }
}
# pmodels/mpich 6a79bf6575c3 src/mpi/romio/doc/users-guide.tex, "Hints" and its subsections.
check "every hint of the ROMIO Users Guide is read by mpich" documented_keys_read mpich \
    ind_rd_buffer_size ind_wr_buffer_size romio_ds_read romio_ds_write cb_buffer_size cb_nodes \
    romio_cb_read romio_cb_write romio_no_indep_rw cb_config_list striping_factor striping_unit \
    start_iodevice direct_read direct_write romio_lustre_co_ratio romio_lustre_coll_threshold \
    romio_lustre_ds_in_coll panfs_layout_type panfs_layout_stripe_unit panfs_layout_total_num_comps \
    panfs_layout_parity_stripe_width panfs_layout_parity_stripe_depth panfs_layout_visit_policy \
    panfs_concurrent_write
# open-mpi/ompi 8efebee745e1 docs/tuning-apps/_include/ompio-mpi-info-hints.rst, every table.
check "every hint of Open MPI's OMPIO hints page is read by openmpi" documented_keys_read openmpi \
    cb_buffer_size cb_nodes collective_buffering OMPIO_SHAREDFP_RELAXED_ORDERING striping_unit \
    stripe_size striping_factor stripe_width useSIOXLib gpfsAccessRange gpfsFreeRange \
    gpfsClearFileCache gpfsCancelHints gpfsSetReplication gpfsByteRange gpfsRestripeData \
    sioxAccessRange sioxFreeRange sioxClearFileCache sioxCancelHints sioxDataShipStart \
    sioxDataShipStop sioxSetReplication sioxByteRange sioxRestripeData
# Parallel-NetCDF/PnetCDF 365f7e2b72e0 doc/README.burst_buffering.md (the hint table) and
# RELEASE_NOTES (the hints of "New PnetCDF hints" and "Clarifications about of PnetCDF hints").
check "every hint of PnetCDF's burst-buffer table and release notes is read by pnetcdf" documented_keys_read pnetcdf \
    nc_burst_buf nc_burst_buf_dirname nc_burst_buf_del_on_close nc_burst_buf_flush_buffer_size \
    nc_in_place_swap nc_header_align_size nc_var_align_size nc_record_align_size pnetcdf_subfiling \
    nc_num_subfiles
for implementation in romio ompio pnetcdf; do
    check "an example set of the $implementation documentation" \
        sh -c "ls tests-lint/examples/$implementation-*.txt | xargs grep -L '^# known-finding' | grep -q ."
done

# ---------------------------------------------------------------------------------------------
# (13) The man page: renders without a warning, has its sections, documents every option and code.
page=docs/man/mpi-info-lint.1
check "the man page exists" test -f "$page"
if command -v man >/dev/null 2>&1 && [ -f "$page" ]; then
    check "man --warnings renders $page without a warning" \
        sh -c "warnings=\$(MANWIDTH=80 man --warnings -l '$page' 2>&1 >/dev/null) && [ -z \"\$warnings\" ] || { echo \"\$warnings\"; exit 1; }"
    MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$page" 2>/dev/null | col -b >"$tmp/page.txt"
    for section in NAME SYNOPSIS DESCRIPTION OPTIONS SYNTAXES OUTPUT CODES "EXIT STATUS" ENVIRONMENT EXAMPLES FILES "SEE ALSO"; do
        check "the man page has $section" grep -qx "$section" "$tmp/page.txt"
    done
    for option in $("$LINT" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u | grep -vx -- '--help\|--version'); do
        check "the man page documents $option" grep -qF -- "$option" "$tmp/page.txt"
    done
    for code in unknown-key bad-value unit-suffix out-of-range not-read-by-target too-long-for-target conflict \
                malformed-line duplicate-key truncated-input unusual-spelling; do
        check "the man page documents $code" grep -qE "^ +$code\b" "$tmp/page.txt"
    done
    # Issue 33's target strings and the note severity, which the page once did not mention.
    check "the man page documents NAME@RELEASE targets" grep -qF "openmpi@4.1" "$tmp/page.txt"
    tr -s ' \n' '  ' <"$tmp/page.txt" >"$tmp/page-joined.txt" # a phrase may be folded anywhere
    check "the man page documents the note severity" grep -qF "and note where" "$tmp/page-joined.txt"
else
    echo "man is missing: the man page rendering checks are skipped (Debian package man-db)"
fi

# ---------------------------------------------------------------------------------------------
# (14) --report: a report of libmpi_info_hintcheck shown as text and as one HTML page. The
# reports are our own, each validated against hintcheck/report.schema.json (the schema the
# report's Rust types make) so that they keep the real report's shape; a newer report (the
# stack, the hint variables, each hint's source, fields unknown here) is that report with the
# new parts added. hintcheck/tests/run.sh shows every report of the real jobs.
cd "$tmp"
cat >report_fixtures.py <<'PY'
"""Writes the reports of the --report checks, each validated against the report's schema."""
import copy, json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator(schema)
T = "mpich@4.0.2"
PROGRAM = {"from": "program"}
MPI = {"from": "implementation"}

def entry(call, count, size, hints, diagnostics=(), mismatches=(), effective=(), notes=(), sources=None, **more):
    sources = sources or {}
    e = {"count": count, "call": call, **more, "caller": None, "through": None, "comm_size": size, "target": T,
         "hints": [{"key": k, "value": v, "source": sources.get(k, PROGRAM)} for k, v in hints],
         "diagnostics": list(diagnostics), "mismatches": list(mismatches),
         "effective": [dict(e, source=sources.get(e["key"], PROGRAM if e["requested"] is not None else MPI)) for e in effective],
         "counted_findings": count * sum(d["severity"] != "note" for d in diagnostics),
         "counted_mismatches": count * len(mismatches), "notes": list(notes)}
    return e

def diag(key, value, code, severity, message):
    return {"key": key, "value": value, "code": code, "severity": severity, "message": message}

def eff(key, requested, effective, status):
    return {"key": key, "requested": requested, "effective": effective, "status": status}

def report(calls, notes=(), stack=(), environment=(), **top):
    r = {"tool": "libmpi_info_hintcheck", "version": "0.1.0",
         "implementation": "MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n",
         "implementation_name": "MPICH", "implementation_version": "4.0.2", "target": T,
         "rank": 0, "world_size": 10, "finalized": True,
         "checked_calls": sum(c["count"] for c in calls),
         "findings": sum(c["counted_findings"] for c in calls) + sum(v["counted_findings"] for v in environment),
         "mismatches": sum(c["counted_mismatches"] for c in calls),
         "notes": list(notes), "stack": list(stack), "environment": list(environment), "calls": calls}
    r.update(top)
    return r

def write(name, r, valid=True):
    if valid:
        validator.validate(r)
    with open(name, "w") as f:
        json.dump(r, f, indent=2)

# A job on MPICH with PnetCDF above it, a ROMIO_HINTS file, hints from the file and from the
# program (the program's value of cb_nodes won over the file's).
HINTS = "/home/me/hints"
small = report([
    entry("MPI_File_open", 3, 6,
          [("cb_buffer_size", "16M"), ("striping_factr", "4"), ("romio_cb_write", "maybe"), ("cb_nodes", "1"),
           ("nc_var_align_size", "1048576")],
          [diag("cb_buffer_size", "16M", "unit-suffix", "error", "for mpich 4.0.2: '16M' is read as 16: the 'M' is dropped; 16M is 16777216"),
           diag("striping_factr", "4", "unknown-key", "warning", "unknown hint 'striping_factr'; did you mean 'striping_factor'?"),
           diag("romio_cb_write", "maybe", "bad-value", "error", "for mpich 4.0.2: 'maybe' is not one of enable, disable, automatic"),
           diag("nc_var_align_size", "1048576", "not-read-by-target", "note", "'nc_var_align_size' is not read by mpich 4.0.2; it is read by pnetcdf")],
          [{"key": "cb_nodes", "values": [{"value": "1", "ranks": [0, 1, 2, 3, 8]}, {"value": None, "ranks": [9]}]}],
          [eff("cb_buffer_size", "16M", "16M", "misread"), eff("striping_factr", "4", None, "dropped"),
           eff("romio_cb_write", "maybe", "enable", "changed"), eff("cb_nodes", "1", "1", "kept"),
           eff("nc_var_align_size", "1048576", None, "dropped"), eff("romio_cb_read", None, "automatic", "added")],
          sources={"cb_buffer_size": {"from": "ROMIO_HINTS", "file": HINTS, "line": 2},
                   "cb_nodes": {"from": "program", "overridden": [{"from": "ROMIO_HINTS", "file": HINTS, "line": 1, "value": "2",
                                                                  "why": "ROMIO skips an entry of the file whose key the program set"}]}},
          filenames=["out.dat", "out2.dat"], calls_on_other_files=1),
    entry("MPI_Comm_spawn", 1, 1, [("host", "node1")], notes=["the MPI reports nothing of a spawn's hints"]),
    entry("MPI_Win_create", 1, 6, [],
          mismatches=[{"key": "no_locks", "values": [{"value": "true", "ranks": [0, 2, 4]}, {"value": "false", "ranks": [1, 3, 5]}]}]),
], notes=["MPI_INFO_HINTCHECK_TARGETS: 'nosuch' is not a target; ignored"],
   stack=[{"layer": "mpi", "name": "MPICH", "version": "4.0.2", "target": T, "file": None},
          {"layer": "pnetcdf", "name": "PnetCDF", "version": "1.12.3", "target": "pnetcdf@1.12.3", "file": "/usr/lib/libpnetcdf.so.4"}],
   environment=[{"variable": "ROMIO_HINTS", "file": HINTS, "read_by": "mpi", "target": T,
                 "findings": [{"line": 3, "column": 1, "key": "cb_bufer_size", "value": "4", "code": "unknown-key", "severity": "warning",
                               "message": "unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'?"}],
                 "counted_findings": 1, "notes": []},
                {"variable": "PNETCDF_HINTS", "value": "nc_var_align_size=4096", "read_by": "pnetcdf", "target": "pnetcdf@1.12.3",
                 "findings": [], "counted_findings": 0, "notes": []}])
write("small.json", small)

# An older report (before the stack, the hint variables and the sources): rendered with "-".
older = copy.deepcopy(small)
for part in ("stack", "environment"):
    del older[part]
for c in older["calls"]:
    for part in ("caller", "through", "counted_findings", "counted_mismatches"):
        del c[part]
    for pair in c["hints"] + c["effective"]:
        del pair["source"]
write("older.json", older, valid=False)
# A newer report: fields this version does not know, ignored.
newer = copy.deepcopy(small)
newer["a_field_of_tomorrow"] = {"anything": [1, 2]}
newer["calls"][0]["effective"][0]["unknown_too"] = True
write("newer.json", newer, valid=False)
# Parts whose form this version does not know: shown as their JSON text.
odd = copy.deepcopy(small)
odd["environment"] = {"form": "not a list"}
write("odd.json", odd, valid=False)

# Hostile strings: markup, quotes, ESC, BEL, line ends, C1, and bytes that are not UTF-8 (lone
# surrogates, as the report writes them) in keys, values, file names, messages and notes.
H = "<script>alert('x')</script>\"q\" &amp; \x1b[31m\x07\n\r\x9b\udcff\udcc3"
hostile = report([
    entry("MPI_File_open", 1, 2, [("k" + H, "v" + H), ("cb_nodes", "<b>" + H)],
          [diag("k" + H, "v" + H, "unknown-key", "warning", "unknown hint 'k" + H + "'")],
          [{"key": "cb_nodes", "values": [{"value": "<b>" + H, "ranks": [0]}, {"value": "2", "ranks": [1]}]}],
          [eff("k" + H, "v" + H, None, "dropped"), eff("cb_nodes", "<b>" + H, "<i>" + H, "changed"),
           eff("added" + H, None, "<img src=x onerror=alert(1)>", "added")],
          ["note " + H], filenames=["f" + H + ".dat"], calls_on_other_files=0),
], notes=["top " + H], target="mpich" + H, implementation="MPICH" + H)
write("hostile.json", hostile)

bad = copy.deepcopy(small); del bad["calls"]; write("missing.json", bad, valid=False)
bad = copy.deepcopy(small); bad["calls"][0]["effective"][0]["status"] = 7; write("wrongtype.json", bad, valid=False)
bad = copy.deepcopy(small); del bad["calls"][0]["effective"][0]["requested"]; write("nullable.json", bad, valid=False)
bad = copy.deepcopy(small); bad["tool"] = "something-else"; write("othertool.json", bad, valid=False)
PY
check "--report: the reports of the checks (small, hostile) are valid against the report's schema" \
    "$PYTHON" report_fixtures.py "$repo/hintcheck/report.schema.json"

# Text: exact lines.
run --report small.json
check "--report small.json: exit 0" exits 0
check "--report small.json: nothing on stderr" no_stderr
cat >small.expected <<'TXT'
small.json: libmpi_info_hintcheck 0.1.0 report
totals: 5 checked calls (3 distinct), 10 findings (found: 2 errors, 2 warnings, 1 note, each once), 4 hints on which processes disagreed
job: MPICH 4.0.2, target mpich@4.0.2, rank 0 of 10, finalized
stack:
  layer    name     version  target
  mpi      MPICH    4.0.2    mpich@4.0.2
  pnetcdf  PnetCDF  1.12.3   pnetcdf@1.12.3
environment:
  ROMIO_HINTS /home/me/hints (read by mpi, for mpich@4.0.2)
    ROMIO_HINTS /home/me/hints:3:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]
  PNETCDF_HINTS (read by pnetcdf, for pnetcdf@1.12.3): nothing found
notes:
  MPI_INFO_HINTCHECK_TARGETS: 'nosuch' is not a target; ignored

MPI_File_open: 3 calls, 6 processes, target mpich@4.0.2
  files: out.dat, out2.dat (and 1 call on other files)
  key                requested  effective  status   source                                          finding
  cb_buffer_size     16M        16M        misread  ROMIO_HINTS /home/me/hints:2                    error: for mpich 4.0.2: '16M' is read as 16: the 'M' is dropped; 16M is 16777216 [unit-suffix]
  striping_factr     4          -          dropped  program                                         warning: unknown hint 'striping_factr'; did you mean 'striping_factor'? [unknown-key]
  romio_cb_write     maybe      enable     changed  program                                         error: for mpich 4.0.2: 'maybe' is not one of enable, disable, automatic [bad-value]
  cb_nodes           1          1          kept     program; over ROMIO_HINTS /home/me/hints:1 = 2  -
  nc_var_align_size  1048576    -          dropped  program                                         note: 'nc_var_align_size' is not read by mpich 4.0.2; it is read by pnetcdf [not-read-by-target]
  romio_cb_read      -          automatic  added    implementation                                  -
  overridden:
    cb_nodes: ROMIO_HINTS /home/me/hints:1 = 2 lost: ROMIO skips an entry of the file whose key the program set
  disagreements:
    cb_nodes: "1" on ranks 0-3,8; not passed on rank 9

MPI_Comm_spawn: 1 call, 1 process, target mpich@4.0.2
  key   requested  effective  status  source   finding
  host  node1      -          -       program  -
  notes:
    the MPI reports nothing of a spawn's hints

MPI_Win_create: 1 call, 6 processes, target mpich@4.0.2
  hints: -
  disagreements:
    no_locks: "true" on ranks 0,2,4; "false" on ranks 1,3,5
TXT
check "--report small.json: the text, line for line" diff small.expected "$out"
STDIN=small.json run --report -
check "--report - reads standard input, named <stdin>" sh -c "[ $rc -eq 0 ] && head -n 1 '$out' | grep -qx '<stdin>: libmpi_info_hintcheck 0.1.0 report'"

check "--report small.json: the stack, a table" sh -c "grep -qx '  layer    name     version  target' '$out' && grep -qx '  pnetcdf  PnetCDF  1.12.3   pnetcdf@1.12.3' '$out'"
check "--report small.json: a hint variable's finding at its file, line and column" \
    line "    ROMIO_HINTS /home/me/hints:3:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]"
check "--report small.json: a hint's source (a file and line), a value it won over, and why" \
    sh -c "grep -qE '^  cb_buffer_size +16M +16M +misread +ROMIO_HINTS /home/me/hints:2 +error: ' '$out' && grep -qE '^  cb_nodes +1 +1 +kept +program; over ROMIO_HINTS /home/me/hints:1 = 2 +-\$' '$out' && grep -qx '    cb_nodes: ROMIO_HINTS /home/me/hints:1 = 2 lost: ROMIO skips an entry of the file whose key the program set' '$out'"
run --report newer.json
check "--report of a newer report (fields unknown here): exit 0, as the report it extends" \
    bash -c "[ $rc -eq 0 ] && diff <(sed 1d small.expected) <(sed 1d '$out')"
run --report older.json
check "--report of an older report (no stack, hint variables or sources): exit 0" exits 0
check "an older report: '-' where the parts it has not are" \
    sh -c "grep -qx 'stack: -' '$out' && grep -qx 'environment: -' '$out' && grep -qE '^  cb_nodes +1 +1 +kept +- +-\$' '$out' && ! grep -q '^  overridden:' '$out'"
check "an older report: the calls without sources as in the current form" \
    bash -c "diff <(sed -n '/^MPI_Win_create/,\$p' small.expected) <(sed -n '/^MPI_Win_create/,\$p' '$out')"
run --report odd.json
check "--report of a part in a form not known here: shown as its JSON text, exit 0" \
    sh -c "[ $rc -eq 0 ] && grep -qx 'environment: {\"form\":\"not a list\"}' '$out'"

# Colour: only asked for (or on a terminal without NO_COLOR), and never in HTML.
run --report small.json --color always
check "--report --color always: a status in colour" matches "${esc}\[1;31mmisread${esc}\[0m "
check "--report --color always: a severity in colour" matches "${esc}\[1;35mwarning:${esc}\[0m"
run --report small.json
check "--report to a pipe: no colour" no_escapes "$out"
if command -v script >/dev/null 2>&1; then
    script -qec "'$LINT' --report small.json" /dev/null >tty.out 2>&1 </dev/null
    check "--report on a terminal: colour" has_escapes tty.out
    NO_COLOR=1 script -qec "'$LINT' --report small.json" /dev/null >tty.out 2>&1 </dev/null
    check "--report on a terminal with NO_COLOR=1: no colour" no_escapes tty.out
fi
run --report small.json --format html --color always
check "--report --format html --color always: no terminal escape in the page" no_escapes "$out"

# HTML: parsed, its tables checked against the report.
cat >report_escaped.py <<'PY'
import os, unicodedata

def escaped(text):
    """mpi_info::hints::Escaped of the bytes a report string stands for (os.fsencode)."""
    out = []
    for ch in os.fsencode(text).decode("utf-8", "surrogateescape"):
        o = ord(ch)
        if 0xdc80 <= o <= 0xdcff:
            out.append("\\x%02x" % (o - 0xdc00))
        elif unicodedata.category(ch) == "Cc":
            out.append({"\t": "\\t", "\r": "\\r", "\n": "\\n"}.get(ch, "\\u{%x}" % o))
        else:
            out.append(ch)
    return "".join(out)
PY
cat >report_html.py <<'PY'
"""Checks the HTML page of a report: whole in itself and well formed, only the elements and
attributes of the page (no script, no link, no event handler), no raw control character, and
its tables those of the report: one row per key with its status, the disagreements' ranks."""
import json, sys, unicodedata
from html.parser import HTMLParser
from report_escaped import escaped

ALLOWED = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "table", "thead",
           "tbody", "tr", "th", "td", "section", "span", "div", "ul", "li", "p", "code", "br",
           "details", "summary"}
VOID = {"meta", "br"}
ATTRS = {"lang", "charset", "name", "content", "class"}

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.tables, self.tags = [], [], [], set()
        self.cell = None
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag not in ALLOWED:
            self.problems.append(f"element <{tag}>")
        for name, value in attrs:
            if name not in ATTRS:
                self.problems.append(f"attribute {name}={value!r} on <{tag}>")
        if tag not in VOID:
            self.stack.append(tag)
        classes = dict(attrs).get("class", "")
        if tag == "table":
            self.tables.append({"class": classes, "head": [], "rows": []})
        elif tag == "tr" and "tbody" in self.stack:
            self.tables[-1]["rows"].append([])
        elif tag in ("th", "td"):
            self.cell = {"tag": tag, "class": classes, "text": ""}
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()
        if tag in ("th", "td") and self.cell is not None:
            table = self.tables[-1]
            if tag == "th" and "thead" in self.stack:
                table["head"].append(self.cell["text"])
            elif "tbody" in self.stack:
                table["rows"][-1].append(self.cell)
            self.cell = None
    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data

def main():
    page_path, report_path = sys.argv[1], sys.argv[2]
    raw = open(page_path, "rb").read()
    text = raw.decode("utf-8")  # raises on a byte that is not UTF-8
    controls = sorted({hex(ord(c)) for c in text if unicodedata.category(c) == "Cc" and c != "\n"})
    assert not controls, f"raw control characters in the page: {controls}"
    assert text.startswith("<!DOCTYPE html>\n"), text[:40]
    page = Page()
    page.feed(text)
    page.close()
    assert not page.problems, page.problems
    assert not page.stack, f"left open: {page.stack}"
    assert "script" not in page.tags and "img" not in page.tags, page.tags
    report = json.load(open(report_path))
    hints = [t for t in page.tables if t["class"] == "hints"]
    assert len(hints) == len(report["calls"]), (len(hints), len(report["calls"]))
    disagreements = [t for t in page.tables if t["class"] == "disagreements"]
    assert len(disagreements) == sum(1 for c in report["calls"] if c["mismatches"]), len(disagreements)
    disagreements = iter(disagreements)
    for call, table in zip(report["calls"], hints):
        assert table["head"] == ["key", "requested", "effective", "status", "source", "finding"], table["head"]
        keys = []
        for key in [e["key"] for e in call["effective"]] + [h["key"] for h in call["hints"]] + [d["key"] for d in call["diagnostics"]]:
            if key not in keys:
                keys.append(key)
        assert [row[0]["text"] for row in table["rows"]] == [escaped(k) for k in keys], ([r[0]["text"] for r in table["rows"]], keys)
        for row, key in zip(table["rows"], keys):
            assert len(row) == 6, row
            line = next((e for e in call["effective"] if e["key"] == key), None)
            status = row[3]
            if line is None:
                assert status["text"] == "" and status["class"] == "", status
            else:
                assert status["text"] == line["status"] and status["class"] == "status " + line["status"], status
                for cell, value in ((row[1], line["requested"]), (row[2], line["effective"])):
                    assert cell["text"] == ("" if value is None else escaped(value)), (cell, value)
            findings = [d for d in call["diagnostics"] if d["key"] == key]
            for d in findings:
                assert escaped(d["message"]) in row[5]["text"] and f"[{d['code']}]" in row[5]["text"], (row[5], d)
            if not findings:
                assert row[5]["text"] == "", row[5]
        if call["mismatches"]:
            table = next(disagreements)
            assert table["head"] == ["key", "value", "ranks"], table["head"]
            want = [(escaped(m["key"]), "(not passed)" if g["value"] is None else escaped(g["value"]), g["ranks"])
                    for m in call["mismatches"] for g in m["values"]]
            got = [tuple(c["text"] for c in row) for row in table["rows"]]
            assert [g[:2] for g in got] == [w[:2] for w in want], (got, want)
            for (_, _, shown), (_, _, ranks) in zip(got, want):
                assert sorted(int(r) for part in shown.split(",") for r in
                              (range(int(part.split("-")[0]), int(part.split("-")[1]) + 1) if "-" in part else [part])) == sorted(ranks), (shown, ranks)
    for part in ("stack", "environment"):
        tables = [t for t in page.tables if t["class"] == part]
        value = report.get(part) or []
        # A hint variable has a row a finding, or one saying nothing was found.
        want = len(value) if part == "stack" else sum(max(1, len(v["findings"])) for v in value)
        assert len(tables) == 1, (part, len(tables))
        assert len(tables[0]["rows"]) == want, (part, tables[0]["rows"], value)
    for extra in sys.argv[3:]:
        assert extra in text, f"not in the page: {extra}"
    print("ok")

main()
PY
run --report small.json --format html
check "--report --format html: exit 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ]"
check "--report --format html: parsed, one row a key with its status, the disagreements (0-3,8)" \
    "$PYTHON" report_html.py "$out" small.json '<td>0-3,8</td>' '<td class="status misread">misread</td>' \
    '<td>ROMIO_HINTS /home/me/hints:2</td>' '<td>PnetCDF</td>' '<td>ROMIO_HINTS /home/me/hints:3:1</td>' \
    '<li>cb_nodes: ROMIO_HINTS /home/me/hints:1 = 2 lost: ROMIO skips an entry of the file whose key the program set</li>'
check "--report --format html: self-contained (inline style, no script, no external resource)" \
    sh -c "grep -q '<style>' '$out' && ! grep -qiE '<script|<link|src=|href=|url\\(|@import' '$out'"
run --report older.json --format html
check "--report --format html of an older report: parsed and checked" "$PYTHON" report_html.py "$out" older.json

# Hostile strings: shown as text, never as markup or raw control bytes.
cat >report_text.py <<'PY'
"""Checks the text of a report: no raw control character; each key, file name and note on
a line of its own, escaped."""
import json, sys, unicodedata
from report_escaped import escaped
text = open(sys.argv[1], "rb").read().decode("utf-8")
controls = sorted({hex(ord(c)) for c in text if unicodedata.category(c) == "Cc" and c != "\n"})
assert not controls, f"raw control characters: {controls}"
report = json.load(open(sys.argv[2]))
call = report["calls"][0]
lines = text.split("\n")
want = "  files: " + escaped(call["filenames"][0])
assert want in lines, want
for e in call["effective"]:
    assert any(line.startswith("  " + escaped(e["key"]) + " ") for line in lines), e["key"]
assert "    " + escaped(call["notes"][0]) in lines
assert "  " + escaped(report["notes"][0]) in lines
print("ok")
PY
run --report hostile.json
check "hostile strings, text: exit 0" exits 0
check "hostile strings, text: escaped, each key, file name and note on its line, no raw control byte" \
    "$PYTHON" report_text.py "$out" hostile.json
run --report hostile.json --format html
check "hostile strings, HTML: exit 0" exits 0
check "hostile strings, HTML: text in the parsed page (no <script>, no <img>), no raw control byte" \
    "$PYTHON" report_html.py "$out" hostile.json '&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;q&quot; &amp;amp; <span class="esc">\u{1b}</span>[31m<span class="esc">\u{7}</span><span class="esc">\n</span><span class="esc">\r</span><span class="esc">\u{9b}</span><span class="esc">\xff</span><span class="esc">\xc3</span>'

# Usage errors and reports that cannot be read: exit 2, named.
for options in "--format json" "codes.txt" "--env" "--list" "--explain cb_nodes" "--target mpich" "--syntax kv"; do
    # shellcheck disable=SC2086
    run --report small.json $options
    check "--report with $options: a usage error (exit 2), said" sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -q '^mpi-info-lint: --report' '$err'"
done
run --format html codes.txt
check "--format html without --report: a usage error (exit 2)" sh -c "[ $rc -eq 2 ] && grep -qx 'mpi-info-lint: --format html is for --report' '$err'"
printf 'cb_nodes 4\n' >notjson.txt
run --report notjson.txt
check "--report of a file that is not JSON: exit 2, named" sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -q '^mpi-info-lint: notjson.txt: not JSON: ' '$err'"
printf '{"tool": "libmpi_info_hintcheck", "version": "\377"}' >notutf8.json
run --report notutf8.json
check "--report of a file that is not UTF-8: exit 2, named" says "mpi-info-lint: notutf8.json: not JSON: not UTF-8 text"
run --report missing.json
check "--report of a report without its calls: exit 2, the field named" \
    sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -q '^mpi-info-lint: missing.json: not a hintcheck report: missing field .calls.' '$err'"
run --report nullable.json
check "--report of a report without a required field that may be null: exit 2" says "nullable.json: not a hintcheck report: missing field \`requested\`"
run --report wrongtype.json
check "--report of a report with a field of another type: exit 2, named" says "mpi-info-lint: wrongtype.json: not a hintcheck report: "
run --report othertool.json
check "--report of another tool's JSON: exit 2, named" says "othertool.json: not a hintcheck report: \"tool\" is 'something-else', not 'libmpi_info_hintcheck'"
run --report no-such-report.json
check "--report of a missing file: exit 2, named" says "mpi-info-lint: no-such-report.json: no such file"
printf '[]' >"r${esc}[31m${bel}.json"
run --report "r${esc}[31m${bel}.json"
check "--report of a file named with ESC and BEL that is no report: the name escaped" \
    sh -c "[ $rc -eq 2 ] && grep -qF 'mpi-info-lint: r\\u{1b}[31m\\u{7}.json: not a hintcheck report' '$err' && ! grep -q \"\$(printf '\\033')\" '$err'"
if [ -w /dev/full ]; then
    last="mpi-info-lint --report small.json >/dev/full"
    "$LINT" --report small.json </dev/null >/dev/full 2>"$err"; rc=$?
    check "--report to /dev/full: exit 2 with the message" sh -c "[ $rc -eq 2 ] && grep -q 'standard output: no space left on device' '$err'"
fi
cd "$repo"

finish
