/*
 * libmpi_info_hintcheck: what the MPI did with your hints (docs/hintcheck.md).
 *
 * Built with an MPI's own compiler wrapper (make hintcheck MPICC=...), loaded with LD_PRELOAD or
 * linked ahead of the MPI. Each intercepted MPI_X call is made with the caller's arguments
 * untouched, and its result returned as is. Around it:
 *   - before it, the caller's (key, value) pairs are read through the host MPI's PMPI_Info_*
 *     calls (an MPI may change the caller's object);
 *   - before it too, if the call is collective over more than one process, one PMPI_Allreduce
 *     of a 64-bit digest of the sorted pairs (and of its complement, with MPI_MAX: equal maxima
 *     mean equal digests) on the call's communicator tells whether every process passed the
 *     same hints; only when they did not, a PMPI_Allgather of the lengths and a PMPI_Allgatherv
 *     of the pairs name the keys, values and ranks, printed on standard error at once by the
 *     lowest rank;
 *   - when it succeeded, what the MPI reports afterwards (PMPI_File_get_info,
 *     PMPI_Win_get_info, PMPI_Comm_get_info, PMPI_Session_get_info) is read;
 * and all of it goes to the Rust core (hintcheck/core, linked in as a static archive), which
 * checks the hints with mpi_info::hints, compares, keeps the report and writes the JSON file.
 *
 * Nothing here defines an MPI_Info_ or PMPI_Info_ name, and the version script
 * (hintcheck/exports.map) exports only the intercepted MPI_ names.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the Rust core (hintcheck/core/src/lib.rs) ---- */
typedef struct HcCall HcCall;
int mpi_info_hintcheck_init(const char *version, const char *target, int world_rank, int world_size);
HcCall *mpi_info_hintcheck_call_begin(const char *call, const char *filename, int comm_size);
void mpi_info_hintcheck_requested(HcCall *c, const char *pairs, size_t len);
void mpi_info_hintcheck_reported(HcCall *c, const char *pairs, size_t len);
void mpi_info_hintcheck_note(HcCall *c, const char *message);
void mpi_info_hintcheck_unread(HcCall *c, int reported, int index, const char *key, int max_key);
int mpi_info_hintcheck_mismatch(HcCall *c, int nranks, const int *world_ranks, const int *lens, const char *buf, int print);
int mpi_info_hintcheck_call_end(HcCall *c);
void mpi_info_hintcheck_counts(long long *out);
void mpi_info_hintcheck_finalize(const long long *totals);

/* ---- process state ---- */
/* state: UNSET until the core is set up, then CHECKING, then FINALIZED once MPI_Finalize has
 * begun (nothing more is checked). Changed under state_lock; read without it by setup() once it
 * is no longer UNSET (the atomic load pairs with the store that published the fields below). */
enum { UNSET, CHECKING, FINALIZED };
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static int state = UNSET;
static int world_rank, world_size;
static int thread_multiple;     /* provided level is MPI_THREAD_MULTIPLE */
static const char *target = "mpi";

/* Sets up the core once MPI is initialized; returns whether calls are to be checked. */
static int setup(void) {
    int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
    if (s != UNSET) return s == CHECKING;
    pthread_mutex_lock(&state_lock);
    if (state == UNSET) {
        int inited = 0, fin = 0;
        PMPI_Initialized(&inited);
        PMPI_Finalized(&fin);
        if (inited && !fin) {
            char version[MPI_MAX_LIBRARY_VERSION_STRING + 1];
            int len = 0, provided = MPI_THREAD_SINGLE;
            memset(version, 0, sizeof version);
            PMPI_Get_library_version(version, &len);
            if (strstr(version, "CRAY MPICH") || strstr(version, "Cray MPICH")) target = "cray-mpich";
            else if (strstr(version, "MPICH")) target = "mpich";
            else if (strstr(version, "Open MPI")) target = "openmpi";
            PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
            PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
            PMPI_Query_thread(&provided);
            thread_multiple = provided == MPI_THREAD_MULTIPLE;
            mpi_info_hintcheck_init(version, target, world_rank, world_size);
            __atomic_store_n(&state, CHECKING, __ATOMIC_RELEASE);
        }
    }
    s = state;
    pthread_mutex_unlock(&state_lock);
    return s == CHECKING;
}

/* ---- reading info objects ---- */

/* A growable byte buffer; on allocation failure it is marked failed and stays empty. */
typedef struct { char *data; size_t len, cap; int failed; } Buf;

/* Room for n more bytes; 0 (and marked failed) if there is none. */
static int buf_reserve(Buf *b, size_t n) {
    if (b->failed) return 0;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->len + n) cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) { b->failed = 1; return 0; }
        b->data = d; b->cap = cap;
    }
    return 1;
}

static void buf_add(Buf *b, const char *s, size_t n) {
    if (!buf_reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

/* Reads the value of key into value (room bytes), NUL-terminated, in one call (before MPI 4, a
 * second for a value that may have been cut); returns the length of the whole value, larger
 * than room - 1 if it was cut, or -1 if the key is not there (or the call failed). */
static int get_value(MPI_Info info, const char *key, char *value, int room) {
    int flag = 0, len = room;
#if MPI_VERSION >= 4
    if (PMPI_Info_get_string(info, key, &len, value, &flag) != MPI_SUCCESS || !flag) return -1;
    value[room - 1] = '\0';
    return len - 1;   /* the length returned counts the terminating NUL */
#else
    if (PMPI_Info_get(info, key, room - 1, value, &flag) != MPI_SUCCESS || !flag) return -1;
    value[room - 1] = '\0';
    len = (int)strlen(value);
    /* A value that fills the buffer may have been cut (Open MPI 4.1.4 cuts one at room - 2
     * characters when room - 1 is MPI_MAX_INFO_VAL): its length tells. */
    if (len >= room - 2 && (PMPI_Info_get_valuelen(info, key, &len, &flag) != MPI_SUCCESS || !flag)) return -1;
    return len;
#endif
}

/* Reads every pair of an info object (MPI_INFO_NULL: none), in the object's order, into out as
 * "key\0value\0"... (keys and values hold no NUL); returns the number of pairs, -1 if not all
 * could be read (out of memory: out keeps those that were). A value is read in one call into
 * MPI_MAX_INFO_VAL + 1 bytes (MPICH's MPI_Info_set takes values of MPI_MAX_INFO_VAL
 * characters); a longer one, which only the MPI itself can have set, is read again whole. A key
 * MPI_Info_get_nthkey does not give, or whose value cannot be read, is noted on the call c
 * (reported: of the object the MPI reports, else the caller's), never left out in silence:
 * MPICH 4.0.2 gives a key of 255 characters cut to 254, under which there is no value. */
static int read_info(MPI_Info info, Buf *out, HcCall *c, int reported) {
    int nkeys = 0, n = 0;
    if (info == MPI_INFO_NULL) return 0;
    if (PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS || nkeys <= 0) return 0;
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        memset(key, 0, sizeof key);
        if (PMPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) {
            mpi_info_hintcheck_unread(c, reported, i, NULL, MPI_MAX_INFO_KEY);
            continue;
        }
        size_t mark = out->len;
        buf_add(out, key, strlen(key) + 1);
        if (!buf_reserve(out, MPI_MAX_INFO_VAL + 1)) return -1;
        int vlen = get_value(info, key, out->data + out->len, MPI_MAX_INFO_VAL + 1);
        if (vlen > MPI_MAX_INFO_VAL) {
            if (!buf_reserve(out, (size_t)vlen + 1)) return -1;
            vlen = get_value(info, key, out->data + out->len, vlen + 1);
        }
        if (vlen < 0) {
            out->len = mark;
            mpi_info_hintcheck_unread(c, reported, i, key, MPI_MAX_INFO_KEY);
            continue;
        }
        out->len += strlen(out->data + out->len) + 1;
        n++;
    }
    return out->failed ? -1 : n;
}

/* The pairs of a read_info buffer sorted by key, as "key\0value\0"..., and their FNV-1a
 * digest (the count too, so that an empty value is told from a missing pair). */
static const char *sort_base;
static int offset_cmp(const void *a, const void *b) {
    const char *x = sort_base + *(const size_t *)a, *y = sort_base + *(const size_t *)b;
    int c = strcmp(x, y);
    return c ? c : strcmp(x + strlen(x) + 1, y + strlen(y) + 1);
}

static uint64_t serialize(const Buf *pairs, int n, Buf *out) {
    uint64_t h = 1469598103934665603ULL;
    size_t *at = n > 0 ? malloc((size_t)n * sizeof(size_t)) : NULL;
    if (n > 0 && !at) { out->failed = 1; return 0; }
    size_t pos = 0;
    for (int i = 0; i < n; i++) {
        at[i] = pos;
        pos += strlen(pairs->data + pos) + 1;
        pos += strlen(pairs->data + pos) + 1;
    }
    /* qsort has no context argument; the base is set under a lock of its own. */
    static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;
    if (n > 1) {
        pthread_mutex_lock(&sort_lock);
        sort_base = pairs->data;
        qsort(at, (size_t)n, sizeof(size_t), offset_cmp);
        pthread_mutex_unlock(&sort_lock);
    }
    if (!buf_reserve(out, pos)) { free(at); return 0; }
    for (int i = 0; i < n; i++) {
        const char *k = pairs->data + at[i];
        size_t kl = strlen(k) + 1, vl = strlen(k + kl) + 1;
        buf_add(out, k, kl + vl);
    }
    free(at);
    for (size_t i = 0; i < out->len; i++) { h ^= (unsigned char)out->data[i]; h *= 1099511628211ULL; }
    h ^= (uint64_t)n; h *= 1099511628211ULL;
    return h;
}

/* ---- one checked call ---- */

typedef struct {
    HcCall *c;
    Buf requested;      /* the caller's pairs, read_info's form */
    int n;              /* how many */
    int size;           /* the size of the call's communicator or group */
} Check;

/* Everything before the call: the record is begun, the caller's hints are read (before: an MPI
 * may change the caller's info object; MPICH 4.0.2's MPI_Win_set_info cuts an
 * accumulate_ordering value at its first comma in the caller's object). Returns whether the
 * call is checked. comm: the call's communicator (its size is the record's), or MPI_COMM_NULL
 * and the size. */
static int pre(Check *k, const char *call, const char *filename, MPI_Comm comm, int size, MPI_Info info) {
    memset(k, 0, sizeof *k);
    if (!setup()) return 0;
    if (comm != MPI_COMM_NULL) PMPI_Comm_size(comm, &size);
    k->size = size;
    k->c = mpi_info_hintcheck_call_begin(call, filename, size);
    if (!k->c) return 0;
    k->n = read_info(info, &k->requested, k->c, 0);
    if (k->n < 0) {
        mpi_info_hintcheck_note(k->c, "the caller's hints could not all be read (out of memory)");
        k->n = 0;
        k->requested.len = 0;
    }
    mpi_info_hintcheck_requested(k->c, k->requested.data, k->requested.len);
    return 1;
}

/* The call returned an error: there is no object whose hints the MPI could report. */
static void failed(Check *k, int rc) {
    char msg[96];
    snprintf(msg, sizeof msg, "the call failed (error code %d): nothing is reported", rc);
    mpi_info_hintcheck_note(k->c, msg);
}

/* Whether every process of comm passed the same pairs; if not, names the differences. A process
 * alone in comm agrees with itself: no collective. */
static void agree(Check *k, MPI_Comm comm) {
    int rank = 0, size = 1, inter = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) {
        mpi_info_hintcheck_note(k->c, "agreement not checked: not an intracommunicator");
        return;
    }
    if (k->size == 1) return;
    Buf ser = {0};
    uint64_t d = serialize(&k->requested, k->n, &ser), in[2], out[2] = {0, 0};
    in[0] = d; in[1] = ~d;
    if (ser.failed) {
        /* Every process must still take part: zeros change neither maximum, so this process
         * is left out of the comparison. */
        in[0] = 0; in[1] = 0;
        mpi_info_hintcheck_note(k->c, "the hints could not be serialized (out of memory): this process's were not compared");
    }
    if (PMPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_MAX, comm) != MPI_SUCCESS) {
        mpi_info_hintcheck_note(k->c, "the agreement collective failed");
        free(ser.data);
        return;
    }
    if (out[0] == ~out[1]) { free(ser.data); return; }       /* max == min: all equal */
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int mine[2] = { ser.failed ? 0 : (int)ser.len, world_rank };
    int *all = malloc(2 * sizeof(int) * (size_t)size);
    int *lens = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    int *wranks = malloc(sizeof(int) * (size_t)size);
    int failed = !all || !lens || !displs || !wranks;
    /* Every process must make the same collectives: the allocation failure is shared first. */
    int any_failed = failed;
    PMPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm);
    if (!any_failed) {
        PMPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm);
        size_t total = 0;
        for (int i = 0; i < size; i++) {
            lens[i] = all[2 * i]; wranks[i] = all[2 * i + 1];
            displs[i] = (int)total; total += (size_t)lens[i];
        }
        char *gathered = malloc(total ? total : 1);
        int gfailed = !gathered, gany = gfailed;
        PMPI_Allreduce(&gfailed, &gany, 1, MPI_INT, MPI_MAX, comm);
        if (!gany) {
            PMPI_Allgatherv(ser.data ? ser.data : "", mine[0], MPI_CHAR, gathered, lens, displs, MPI_CHAR, comm);
            mpi_info_hintcheck_mismatch(k->c, size, wranks, lens, gathered, rank == 0);
        } else {
            mpi_info_hintcheck_note(k->c, "the processes disagree, but the hints could not be gathered (out of memory)");
        }
        free(gathered);
    } else {
        mpi_info_hintcheck_note(k->c, "the processes disagree, but the hints could not be gathered (out of memory)");
    }
    free(all); free(lens); free(displs); free(wranks); free(ser.data);
}

/* What the MPI reports after the call (info_used is freed here). */
static void reported(Check *k, MPI_Info info_used) {
    Buf pairs = {0};
    if (read_info(info_used, &pairs, k->c, 1) < 0) {
        mpi_info_hintcheck_note(k->c, "the hints the MPI reports could not all be read (out of memory)");
        pairs.len = 0;
    }
    mpi_info_hintcheck_reported(k->c, pairs.data, pairs.len);
    free(pairs.data);
    if (info_used != MPI_INFO_NULL) PMPI_Info_free(&info_used);
}

static void end(Check *k) {
    mpi_info_hintcheck_call_end(k->c);
    k->c = NULL;
    free(k->requested.data);
    k->requested.data = NULL;
}

/* ---- a communicator per group, for the calls on files and windows that have none ---- */
/* MPI_File_set_info, MPI_File_set_view and MPI_Win_set_info are collective over the group of
 * the file or window, but give no communicator. One is made per group (PMPI_Comm_create_group
 * on MPI_COMM_WORLD, collective over the group only) the first time, kept, and freed at
 * MPI_Finalize. Not under MPI_THREAD_MULTIPLE, where two threads could use one at once. */
#define HC_GROUP_TAG 0x4843   /* "HC" */
typedef struct { MPI_Group group; MPI_Comm comm; } GroupComm;
static GroupComm *group_comms;
static int n_group_comms;

static MPI_Comm comm_for_group(MPI_Group group) {
    for (int i = 0; i < n_group_comms; i++) {
        int result = MPI_UNEQUAL;
        PMPI_Group_compare(group, group_comms[i].group, &result);
        if (result == MPI_IDENT) return group_comms[i].comm;
    }
    /* Only a group inside MPI_COMM_WORLD (no spawned processes). Every process of the group
     * must decide alike, since the creation below is collective over it: the ranks are
     * translated one at a time, with nothing allocated that could fail on one process alone. */
    int n = 0, inside = 1;
    MPI_Group world;
    PMPI_Group_size(group, &n);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < n && inside; i++) {
        int wrank = MPI_UNDEFINED;
        PMPI_Group_translate_ranks(group, 1, &i, world, &wrank);
        if (wrank == MPI_UNDEFINED) inside = 0;
    }
    PMPI_Group_free(&world);
    if (!inside) return MPI_COMM_NULL;
    /* The one allocation: if it fails on one process only, that process skips the creation the
     * others make (docs/hintcheck.md, Guarantees, says so). */
    GroupComm *grown = realloc(group_comms, sizeof(GroupComm) * (size_t)(n_group_comms + 1));
    if (!grown) return MPI_COMM_NULL;
    group_comms = grown;
    MPI_Comm comm = MPI_COMM_NULL;
    if (PMPI_Comm_create_group(MPI_COMM_WORLD, group, HC_GROUP_TAG, &comm) != MPI_SUCCESS) return MPI_COMM_NULL;
    MPI_Group copy;
    PMPI_Comm_group(comm, &copy);
    group_comms[n_group_comms].group = copy;
    group_comms[n_group_comms].comm = comm;
    n_group_comms++;
    return comm;
}

static void agree_on_group(Check *k, MPI_Group group) {
    if (thread_multiple) {
        mpi_info_hintcheck_note(k->c, "agreement not checked: the calls on a file or window have no communicator, and under MPI_THREAD_MULTIPLE the tool makes none");
        return;
    }
    if (k->size == 1) return;   /* alone: no communicator needed */
    MPI_Comm comm = comm_for_group(group);
    if (comm == MPI_COMM_NULL) {
        mpi_info_hintcheck_note(k->c, "agreement not checked: no communicator for the group of this file or window");
        return;
    }
    agree(k, comm);
}

/* ---- the intercepted calls ---- */

/* Each intercepted call: pre() and, if the call is collective, the agreement check before the
 * call (so that a disagreement that makes the call itself hang or crash is printed first); the
 * call, with the caller's arguments; then what the MPI reports, and the record is ended. */

static int pre_collective(Check *k, const char *call, const char *filename, MPI_Comm comm, MPI_Info info) {
    int checked = pre(k, call, filename, comm, 1, info);
    if (checked) agree(k, comm);
    return checked;
}

/* The calls collective over the group of a file or window, which give no communicator: pre()
 * with the group's size and the agreement on the group. The group is freed here. */
static int pre_group(Check *k, const char *call, MPI_Group group, MPI_Info info) {
    int size = 1;
    PMPI_Group_size(group, &size);
    int checked = pre(k, call, NULL, MPI_COMM_NULL, size, info);
    if (checked) agree_on_group(k, group);
    PMPI_Group_free(&group);
    return checked;
}

/* The body of a call collective over comm: pre_collective(), the call pmpi_call (its result rc,
 * returned), then after(&k, rc, made) for the object made or changed. */
#define COLLECTIVE(name, filename, comm, info, pmpi_call, after, made) \
    do { \
        Check k; \
        int checked = pre_collective(&k, name, filename, comm, info); \
        int rc = pmpi_call; \
        if (checked) after(&k, rc, made); \
        return rc; \
    } while (0)

/* The after() of each kind of object: what the MPI reports of it once the call succeeded (only
 * then is *made the MPI's output), and the record is ended. */
static void after_file(Check *k, int rc, MPI_File *made) {
    MPI_Info used = MPI_INFO_NULL;
    if (rc != MPI_SUCCESS) failed(k, rc);
    else {
        PMPI_File_get_info(*made, &used);
        reported(k, used);
    }
    end(k);
}

static void after_win(Check *k, int rc, MPI_Win *made) {
    MPI_Info used = MPI_INFO_NULL;
    if (rc != MPI_SUCCESS) failed(k, rc);
    else {
        PMPI_Win_get_info(*made, &used);
        reported(k, used);
    }
    end(k);
}

/* *made MPI_COMM_NULL: no communicator made on this process (MPI_Comm_split_type). */
static void after_comm(Check *k, int rc, MPI_Comm *made) {
    MPI_Info used = MPI_INFO_NULL;
    if (rc != MPI_SUCCESS) failed(k, rc);
    else if (*made == MPI_COMM_NULL) mpi_info_hintcheck_note(k->c, "no communicator made on this process: nothing reported");
    else {
        PMPI_Comm_get_info(*made, &used);
        reported(k, used);
    }
    end(k);
}

int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh) {
    COLLECTIVE("MPI_File_open", filename, comm, info, PMPI_File_open(comm, filename, amode, info, fh), after_file, fh);
}

int MPI_File_set_info(MPI_File fh, MPI_Info info) {
    Check k;
    MPI_Group group;
    int checked = setup() && PMPI_File_get_group(fh, &group) == MPI_SUCCESS && pre_group(&k, "MPI_File_set_info", group, info);
    int rc = PMPI_File_set_info(fh, info);
    if (checked) after_file(&k, rc, &fh);
    return rc;
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info) {
    Check k;
    MPI_Group group;
    int checked = setup() && PMPI_File_get_group(fh, &group) == MPI_SUCCESS && pre_group(&k, "MPI_File_set_view", group, info);
    int rc = PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
    if (checked) after_file(&k, rc, &fh);
    return rc;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win) {
    COLLECTIVE("MPI_Win_create", NULL, comm, info, PMPI_Win_create(base, size, disp_unit, info, comm, win), after_win, win);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
    COLLECTIVE("MPI_Win_allocate", NULL, comm, info, PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win), after_win, win);
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
    COLLECTIVE("MPI_Win_allocate_shared", NULL, comm, info, PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win), after_win, win);
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) {
    COLLECTIVE("MPI_Win_create_dynamic", NULL, comm, info, PMPI_Win_create_dynamic(info, comm, win), after_win, win);
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info) {
    Check k;
    MPI_Group group;
    int checked = setup() && PMPI_Win_get_group(win, &group) == MPI_SUCCESS && pre_group(&k, "MPI_Win_set_info", group, info);
    int rc = PMPI_Win_set_info(win, info);
    if (checked) after_win(&k, rc, &win);
    return rc;
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
    COLLECTIVE("MPI_Comm_set_info", NULL, comm, info, PMPI_Comm_set_info(comm, info), after_comm, &comm);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
    COLLECTIVE("MPI_Comm_dup_with_info", NULL, comm, info, PMPI_Comm_dup_with_info(comm, info, newcomm), after_comm, newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
    COLLECTIVE("MPI_Comm_split_type", NULL, comm, info, PMPI_Comm_split_type(comm, split_type, key, info, newcomm), after_comm, newcomm);
}

/* The spawn calls read their info at the root only: checked there, with no agreement and
 * nothing reported back. */
static void spawned(Check *k, int rc) {
    if (rc != MPI_SUCCESS) failed(k, rc);
    end(k);
}

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]) {
    Check k;
    int rank = -1, checked = 0;
    if (setup() && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == root)
        checked = pre(&k, "MPI_Comm_spawn", NULL, comm, 1, info);
    int rc = PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, array_of_errcodes);
    if (checked) spawned(&k, rc);
    return rc;
}

int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]) {
    int rank = -1, n = 0;
    Check *ks = NULL;
    if (setup() && count > 0 && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == root)
        ks = calloc((size_t)count, sizeof(Check));
    while (ks && n < count && pre(&ks[n], "MPI_Comm_spawn_multiple", NULL, comm, 1, array_of_info[n])) n++;
    int rc = PMPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs, array_of_info, root, comm, intercomm, array_of_errcodes);
    for (int i = 0; i < n; i++) spawned(&ks[i], rc);
    free(ks);
    return rc;
}

#if MPI_VERSION >= 4
/* Local: no agreement. Checked only once the world model is initialized (the report names
 * ranks of MPI_COMM_WORLD). */
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session) {
    Check k;
    int checked = pre(&k, "MPI_Session_init", NULL, MPI_COMM_NULL, 1, info);
    int rc = PMPI_Session_init(info, errhandler, session);
    if (checked) {
        MPI_Info used = MPI_INFO_NULL;
        if (rc != MPI_SUCCESS) failed(&k, rc);
        else if (PMPI_Session_get_info(*session, &used) == MPI_SUCCESS) reported(&k, used);
        end(&k);
    }
    return rc;
}
#endif

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) setup();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) setup();
    return rc;
}

/* The summary: the totals of every process reduced to rank 0, which prints them if something
 * was found (or MPI_INFO_HINTCHECK_VERBOSE is set); the last write of each JSON file; the
 * communicators made for groups are freed. Then PMPI_Finalize, whose result is returned. */
int MPI_Finalize(void) {
    if (setup()) {
        /* mine: checked calls, diagnostics, distinct disagreeing keys and calls with a
         * disagreement of this process. totals: rank 0's own calls and diagnostics, the
         * diagnostics of every process, the most disagreeing keys and calls with a disagreement
         * any process saw (every process of a call sees the same ones). */
        long long mine[4] = {0, 0, 0, 0}, sums[4] = {0, 0, 0, 0}, maxima[4] = {0, 0, 0, 0}, totals[5];
        mpi_info_hintcheck_counts(mine);
        pthread_mutex_lock(&state_lock);
        __atomic_store_n(&state, FINALIZED, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&state_lock);
        if (PMPI_Reduce(mine, sums, 4, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD) == MPI_SUCCESS &&
            PMPI_Reduce(mine, maxima, 4, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD) == MPI_SUCCESS) {
            totals[0] = mine[0]; totals[1] = mine[1]; totals[2] = sums[1];
            totals[3] = maxima[2]; totals[4] = maxima[3];
            mpi_info_hintcheck_finalize(world_rank == 0 ? totals : NULL);
        }
        else
            mpi_info_hintcheck_finalize(NULL);
        for (int i = 0; i < n_group_comms; i++) {
            PMPI_Group_free(&group_comms[i].group);
            PMPI_Comm_free(&group_comms[i].comm);
        }
        free(group_comms);
        group_comms = NULL; n_group_comms = 0;
    }
    return PMPI_Finalize();
}
