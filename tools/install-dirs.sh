#!/bin/sh
# The directories `make install` creates, and `make uninstall` removes again.
#
#   tools/install-dirs.sh make RECORD DESTDIR DIR...
#       creates each DIR (a path under DESTDIR, as the Makefile writes $(DESTDIR)$(LIBDIR)) and
#       every missing parent below DESTDIR, parents first, like `install -d`; each directory it
#       creates, and only those, is added to RECORD (itself a path under DESTDIR, whose own
#       directory is made the same way first), written without DESTDIR so that a staged tree's
#       record names the final paths.
#   tools/install-dirs.sh remove RECORD DESTDIR
#       removes RECORD, then each directory it names, deepest first, when it is empty: a
#       directory that holds anything else (files another package put there, or files added
#       since) stays, and so does every directory that existed before `make install`.
#
# Why a record: `make uninstall` must not remove /usr/local/include or /usr/local/share/man just
# because they are empty now (Debian ships them empty), only what the install made.
set -eu
mode=$1 record=$2 destdir=$3
shift 3

# Creates $1 and its missing parents below $destdir; prints each one it created.
make_dir() {
    [ -d "$1" ] && return 0
    parent=$(dirname "$1")
    if [ "$parent" != "$1" ] && [ "$parent" != "$destdir" ] && [ "$parent" != "${destdir%/}" ]; then
        make_dir "$parent"
    fi
    # Another `make -j` job may create it meanwhile: then that job records it.
    if mkdir "$1" 2>/dev/null; then
        printf '%s\n' "${1#"$destdir"}"
    elif [ ! -d "$1" ]; then
        echo "install-dirs.sh: cannot create directory $1" >&2
        exit 1
    fi
}

case $mode in
make)
    [ -z "$destdir" ] || mkdir -p "$destdir"
    made=$(make_dir "$(dirname "$record")")
    for dir in "$@"; do
        made="$made
$(make_dir "$dir")"
    done
    # One write per line with O_APPEND: parallel jobs do not mix their lines.
    printf '%s\n' "$made" | sed '/^$/d' >>"$record"
    ;;
remove)
    [ -f "$record" ] || exit 0
    dirs=$(sort -r -u "$record")
    rm -f "$record"
    # Reverse order puts every directory before its parent.
    printf '%s\n' "$dirs" | while IFS= read -r dir; do
        [ -n "$dir" ] && rmdir "$destdir$dir" 2>/dev/null || true
    done
    ;;
*)
    echo "usage: $0 make|remove RECORD DESTDIR [DIR...]" >&2
    exit 2
    ;;
esac
