/* nomem.c - out of memory is an error, never a crash, and a failed call changes nothing.
 *
 * This program replaces malloc and its relatives with versions that can fail on purpose, and
 * runs one scripted sequence of calls (every function that allocates: create, set growing the
 * object past its index threshold, set replacing values, dup, copy-on-write after dup, delete
 * of shared pairs, a duplicate of MPI_INFO_ENV, create_env, free, and the MPIX_ calls that
 * allocate: set_bool, set_int64, merge (growing a small object past its index threshold,
 * replacing values, MPI_INFO_ENV as the source, self-merge), set_from_string in both formats,
 * set_from_file, deserialize, and the hint checks check and check_with_vocab, the first
 * of which also reads the built-in vocabulary: failing there must leave it unread, so that the
 * call made again reads it). For every N from 1 to
 * the number of allocations the script makes, a fresh child process runs the script with the
 * N-th allocation failing. At every step:
 *   - the call returns MPI_SUCCESS or MPI_ERR_NO_MEM, and MPI_ERR_NO_MEM only if an
 *     allocation failed during that call;
 *   - after MPI_ERR_NO_MEM every object is exactly as before and the output handle untouched;
 *     the same call is then repeated without failures, so the script goes on;
 *   - after MPI_SUCCESS every object holds what the model says;
 *   - the read-only calls (get, get_valuelen, get_string, get_nthkey, get_nkeys, and the MPIX_
 *     typed reads, serialize and equal) allocate nothing at all; the script's first step reads
 *     MPI_INFO_ENV, the process's first call into the library, which allocates nothing either
 *     (its pairs were built when the library was loaded).
 * A child that dies (an abort on an allocation the library cannot survive) is a failure.
 * Last, in this process: argument errors come before out of memory (create_env's NULL
 * argument; the hint checks' bad arguments, with the built-in vocabulary's read failing).
 *
 * One stretch is sampled: the first hint check reads the built-in vocabulary, some 15,000
 * allocations, and every child reads it again (about 13 ms each), so failing each of them in
 * turn takes minutes. By default the first and last SAMPLE_EDGE of them fail, and every
 * SAMPLE_STRIDE-th between; NOMEM_ALL=1 fails every one (all were, when the checks were added).
 *
 * Not run under valgrind, which replaces malloc itself. NOMEM_VERBOSE=1 prints each child's
 * counts. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdint.h>
#include <sys/wait.h>

#include "support.h"

/* ---------------------------------------------------------------- failing allocator */

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

#define SAMPLE_EDGE 64
#define SAMPLE_STRIDE 61

static int armed;            /* count (and maybe fail) allocations only while set */
static long allocations;     /* allocations counted since the child started */
static long fail_at;         /* the allocation number that fails; 0 = none */
static int failed_here;      /* an allocation failed during the current call */

/* 1 if this allocation must fail. */
static int injected(void) {
    if (!armed) return 0;
    if (++allocations != fail_at) return 0;
    failed_here = 1;
    return 1;
}

void *malloc(size_t n) { return injected() ? NULL : __libc_malloc(n); }
void *calloc(size_t n, size_t size) { return injected() ? NULL : __libc_calloc(n, size); }
void *realloc(void *p, size_t n) { return injected() ? NULL : __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t align, size_t n) { return injected() ? NULL : __libc_memalign(align, n); }
void *aligned_alloc(size_t align, size_t n) { return memalign(align, n); }
void *valloc(size_t n) { return memalign((size_t)sysconf(_SC_PAGESIZE), n); }
int posix_memalign(void **out, size_t align, size_t n) {
    if (injected()) return ENOMEM;
    void *p = __libc_memalign(align, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

/* ---------------------------------------------------------------- the script */

enum op { CREATE, SET, DELETE, DUP, DUP_ENV, CREATE_ENV, READS, FREE,
          SET_BOOL, SET_INT64, MERGE, MERGE_ENV, TEXT, FILE_TEXT, DESERIALIZE,
          CHECK_HINTS, CHECK_VOCABULARY };
struct step {
    enum op op;
    int obj, src;           /* object slots */
    const char *key, *value;
    /* The MPIX_ steps: arg is set_bool's value, merge's overwrite, or the hint text's format;
     * num is set_int64's value or the hint text's overwrite; for TEXT and FILE_TEXT (whose key
     * is the text or the file's path), the pairs the text holds, in order, and their count;
     * for CHECK_HINTS and CHECK_VOCABULARY (key: the targets, value: the vocabulary), the
     * diagnostics pairs expected, in order, and their count. */
    int arg;
    long long num;
    const char *const *pairs;
    int npairs;
};

#define OBJECTS 11
#define ENV_OBJ (-1)           /* a READS step's object: MPI_INFO_ENV */
#define MODEL_CAP 100          /* pairs an object's model can hold */
#define KEYS 40
static char key_names[KEYS][16], short_values[KEYS][16], long_values[KEYS][64];
static struct step script[256];
static int steps;

static void add(enum op op, int obj, int src, const char *key, const char *value) {
    if (steps == (int)(sizeof script / sizeof script[0])) exit(2);
    script[steps++] = (struct step){op, obj, src, key, value, 0, 0, NULL, 0};
}

static void add_mpix(enum op op, int obj, int src, const char *key, int arg, long long num, const char *const *pairs,
                     int npairs) {
    add(op, obj, src, key, NULL);
    script[steps - 1].arg = arg;
    script[steps - 1].num = num;
    script[steps - 1].pairs = pairs;
    script[steps - 1].npairs = npairs;
}

/* The hint texts of the TEXT and FILE_TEXT steps, and the pairs each holds. */
static const char LINES_TEXT[] = "# nomem hints\nkey_02 text_two\r\nfresh_a 1\n\tfresh_b\t2\n";
static const char *const LINES_PAIRS[] = {"key_02", "text_two", "fresh_a", "1", "fresh_b", "2"};
static const char PAIRS_TEXT[] = "fresh_a = 9; key_09=pairs_nine ;fresh_c=;";
static const char *const PAIRS_PAIRS[] = {"fresh_a", "9", "key_09", "pairs_nine", "fresh_c", ""};
static const char FILE_TEXT_CONTENTS[] = "file_key file_value\nkey_00 from_file\n";
static const char *const FILE_PAIRS[] = {"file_key", "file_value", "key_00", "from_file"};
static char file_path[64];

/* The hints checked (object 8) and the diagnostics expected: for mpich, then with a vocabulary
 * of a layered library's own added (its target mylib named too). */
static const char *const HINTS_PAIRS[] = {"cb_buffer_size", "16M", "cb_bufer_size", "4", "romio_cb_write", "disable",
                                          "romio_no_indep_rw", "true", "romio_cb_ds_threshold", "101", "cb_nodes", "4"};
static const char *const CHECK_PAIRS[] = {
    "cb_buffer_size", "unit-suffix: for mpich: '16M' is read as 16: the 'M' is dropped; 16M is 16777216",
    "cb_bufer_size", "unknown-key: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'?",
    "romio_no_indep_rw", "conflict: for mpich: ROMIO reads romio_no_indep_rw after romio_cb_write: romio_no_indep_rw=true "
                         "sets romio_cb_write back to enable and deferred open is used, although the code comments say "
                         "romio_cb_write=disable should win (same in the GPFS driver).",
    "romio_cb_ds_threshold", "out-of-range: for mpich: 101 is above the greatest value it takes, 100",
    "mylib_cache", "bad-value: for mylib: 'yes' is not one of true, false (spelled exactly)"};
static const char MYLIB_VOCABULARY[] =
    "{\"format\": \"mpi-info-hints\", \"version\": 1,\n"
    " \"targets\": [{\"name\": \"mylib\", \"title\": \"My I/O library\", \"read\": \"mylib 1.0\"}],\n"
    " \"keys\": [{\"key\": \"mylib_cache\", \"objects\": [\"file\"], \"type\": \"bool\", \"summary\": \"cache writes\",\n"
    "   \"readers\": [{\"target\": \"mylib\", \"parse\": \"words\", \"accepts\": [\"true\", \"false\"], \"source\": \"src/open.c\"}]},\n"
    "  {\"key\": \"mylib_alias\", \"alias_of\": \"mylib_cache\", \"objects\": [\"file\"], \"type\": \"bool\", \"summary\": \"old name\",\n"
    "   \"readers\": [{\"target\": \"mylib\", \"parse\": \"words\", \"accepts\": [\"true\", \"false\"], \"source\": \"src/open.c\"}]}],\n"
    " \"conflicts\": [{\"targets\": [\"mylib\"], \"when\": [{\"key\": \"mylib_cache\", \"values\": [\"false\"]}, {\"key\": \"cb_nodes\"}],\n"
    "   \"message\": \"cb_nodes is ignored without the cache\", \"source\": \"src/open.c\"}]}";

static void build_script(void) {
    for (int i = 0; i < KEYS; i++) {
        snprintf(key_names[i], sizeof key_names[i], "key_%02d", i);
        snprintf(short_values[i], sizeof short_values[i], "v%d", i);
        snprintf(long_values[i], sizeof long_values[i], "a longer value for key %02d, to move it", i);
    }
    add(READS, ENV_OBJ, 0, "maxprocs", NULL);       /* the first call of the process */
    add(CREATE, 0, 0, NULL, NULL);
    /* Past the scan threshold, so the hash index is built and then grows. */
    for (int i = 0; i < 20; i++) add(SET, 0, 0, key_names[i], short_values[i]);
    add(READS, 0, 0, key_names[3], NULL);
    add(SET, 0, 0, key_names[3], long_values[3]);   /* another length: a new pair block */
    add(SET, 0, 0, key_names[3], long_values[4]);   /* same length: in place */
    add(SET, 0, 0, key_names[7], "");
    add(DELETE, 0, 0, key_names[5], NULL);
    add(DUP, 1, 0, NULL, NULL);                      /* shares the pairs */
    add(SET, 1, 0, key_names[1], long_values[1]);    /* copy-on-write */
    add(DUP, 2, 1, NULL, NULL);
    add(DELETE, 2, 0, key_names[2], NULL);           /* copy-on-write by delete */
    add(READS, 2, 0, key_names[9], NULL);
    add(DUP_ENV, 3, 0, NULL, NULL);                  /* shares MPI_INFO_ENV's pairs */
    add(READS, 3, 0, "maxprocs", NULL);
    add(SET, 3, 0, "wdir", "/elsewhere");
    add(CREATE_ENV, 4, 0, NULL, NULL);
    add(CREATE, 5, 0, NULL, NULL);
    for (int i = 0; i < 6; i++) add(SET, 5, 0, key_names[i], long_values[i]);  /* small object */
    add(DUP, 5, 0, NULL, NULL);                      /* replaces slot 5's handle; old one freed first */
    for (int i = 20; i < KEYS; i++) add(SET, 0, 0, key_names[i], long_values[i]);
    add(READS, 0, 0, key_names[30], NULL);
    /* The MPIX_ calls that allocate. */
    add_mpix(SET_BOOL, 0, 0, key_names[0], 1, 0, NULL, 0);          /* another length */
    add_mpix(SET_BOOL, 0, 0, "new_bool", 0, 0, NULL, 0);
    add_mpix(SET_INT64, 0, 0, key_names[1], 0, -9223372036854775807LL - 1, NULL, 0);
    add_mpix(SET_INT64, 0, 0, "new_int", 0, 1234, NULL, 0);
    add(READS, 0, 0, "new_int", NULL);
    add(DUP, 1, 0, NULL, NULL);
    add_mpix(SET_INT64, 1, 0, "new_int", 0, 98765, NULL, 0);        /* copy-on-write */
    add_mpix(MERGE, 0, 5, NULL, 0, 0, NULL, 0);                     /* adds key_05 only */
    add_mpix(MERGE, 0, 5, NULL, 1, 0, NULL, 0);                     /* replaces values */
    add_mpix(MERGE, 5, 0, NULL, 0, 0, NULL, 0);                     /* a small object grows */
    add_mpix(MERGE, 2, 2, NULL, 1, 0, NULL, 0);                     /* itself: no change */
    add_mpix(MERGE, 2, 1, NULL, 1, 0, NULL, 0);                     /* replaces and adds */
    add_mpix(MERGE_ENV, 3, 0, NULL, 1, 0, NULL, 0);                 /* wdir back to ENV's */
    add_mpix(TEXT, 2, 0, LINES_TEXT, MPIX_INFO_FORMAT_LINES, 1, LINES_PAIRS, 3);
    add_mpix(TEXT, 2, 0, PAIRS_TEXT, MPIX_INFO_FORMAT_PAIRS, 0, PAIRS_PAIRS, 3);
    add_mpix(FILE_TEXT, 1, 0, file_path, MPIX_INFO_FORMAT_LINES, 1, FILE_PAIRS, 2);
    add(DESERIALIZE, 6, 0, NULL, NULL);
    add(DESERIALIZE, 7, 3, NULL, NULL);                             /* from MPI_INFO_ENV's pairs */
    add(READS, 6, 0, key_names[30], NULL);
    /* The hint checks: the first reads the built-in vocabulary. */
    add(CREATE, 8, 0, NULL, NULL);
    for (int i = 0; i < 6; i++) add(SET, 8, 0, HINTS_PAIRS[2 * i], HINTS_PAIRS[2 * i + 1]);
    add_mpix(CHECK_HINTS, 9, 8, "mpich", 0, 0, CHECK_PAIRS, 4);
    add(SET, 8, 0, "mylib_cache", "yes");
    add_mpix(CHECK_VOCABULARY, 10, 8, "mylib,mpich", 0, 0, CHECK_PAIRS, 5);
    script[steps - 1].value = MYLIB_VOCABULARY;
    add(READS, 10, 0, "mylib_cache", NULL);
    for (int o = 0; o < OBJECTS; o++) add(FREE, o, 0, NULL, NULL);
}

/* ---------------------------------------------------------------- model */

static MPI_Info handle[OBJECTS];
static model expect[OBJECTS];
static int live[OBJECTS];
static int from_env[OBJECTS];   /* contents are compared with a reference object instead */
static MPI_Info reference[OBJECTS];

/* A dump() of what the model holds, in dump()'s format. */
static char *model_dump(const model *m, size_t *len) {
    size_t cap = 64;
    for (int i = 0; i < m->n; i++) cap += strlen(m->k[i]) + strlen(m->v[i]) + 2;
    char *out = malloc(cap);
    if (!out) exit(2);
    size_t used = (size_t)snprintf(out, cap, "%d", m->n) + 1;
    for (int i = 0; i < m->n; i++) {
        size_t kl = strlen(m->k[i]) + 1, vl = strlen(m->v[i]) + 1;
        memcpy(out + used, m->k[i], kl);
        used += kl;
        memcpy(out + used, m->v[i], vl);
        used += vl;
    }
    *len = used;
    return out;
}

/* 1 if object o holds what it should. */
static int as_expected(int o) {
    size_t want_len, have_len;
    char *want = from_env[o] ? dump(reference[o], &want_len) : model_dump(&expect[o], &want_len);
    char *have = dump(handle[o], &have_len);
    int same = same_dump(want, want_len, have, have_len);
    free(want);
    free(have);
    return same;
}

static char *snapshot[OBJECTS];
static size_t snapshot_len[OBJECTS];

static void take_snapshots(void) {
    for (int o = 0; o < OBJECTS; o++)
        if (live[o]) snapshot[o] = dump(handle[o], &snapshot_len[o]);
}

static int unchanged_since_snapshots(void) {
    int same = 1;
    for (int o = 0; o < OBJECTS; o++) {
        if (!live[o]) continue;
        same &= same_as(handle[o], snapshot[o], snapshot_len[o]);
        free(snapshot[o]);
        snapshot[o] = NULL;
    }
    return same;
}

static char *env_argv[] = {"nomem-command", "--flag", "value with spaces", NULL};

/* One call of a step, with allocations armed; returns its error class. *out is where a new
 * handle goes (sentinel-filled by the caller). */
static int call(const struct step *s, MPI_Info *out) {
    int rc;
    armed = 1;
    switch (s->op) {
    case CREATE: rc = MPI_Info_create(out); break;
    case SET: rc = MPI_Info_set(handle[s->obj], s->key, s->value); break;
    case DELETE: rc = MPI_Info_delete(handle[s->obj], s->key); break;
    case DUP: rc = MPI_Info_dup(handle[s->src], out); break;
    case DUP_ENV: rc = MPI_Info_dup(MPI_INFO_ENV, out); break;
    case CREATE_ENV: rc = MPI_Info_create_env(3, env_argv, out); break;
    case FREE: *out = handle[s->obj]; rc = MPI_Info_free(out); break;
    case SET_BOOL: rc = MPIX_Info_set_bool(handle[s->obj], s->key, s->arg); break;
    case SET_INT64: rc = MPIX_Info_set_int64(handle[s->obj], s->key, s->num); break;
    case MERGE: rc = MPIX_Info_merge(handle[s->obj], handle[s->src], s->arg); break;
    case MERGE_ENV: rc = MPIX_Info_merge(handle[s->obj], MPI_INFO_ENV, s->arg); break;
    case TEXT: rc = MPIX_Info_set_from_string(handle[s->obj], s->key, s->arg, (int)s->num); break;
    case FILE_TEXT: rc = MPIX_Info_set_from_file(handle[s->obj], s->key, s->arg, (int)s->num); break;
    case CHECK_HINTS: rc = MPIX_Info_check(handle[s->src], s->key, out); break;
    case CHECK_VOCABULARY: rc = MPIX_Info_check_with_vocab(handle[s->src], s->value, s->key, out); break;
    case DESERIALIZE: {
        /* Serialized with allocations off: serialize allocates nothing, which reads() checks. */
        static char bytes[16384];
        int size = (int)sizeof bytes;
        armed = 0;
        if (MPIX_Info_serialize(handle[s->src], &size, bytes) != MPI_SUCCESS || size > (int)sizeof bytes) exit(2);
        armed = 1;
        rc = MPIX_Info_deserialize(bytes, size, out);
        break;
    }
    default: rc = -1;
    }
    armed = 0;
    return rc;
}

/* Whether a step makes a new object in its slot (its handle comes back in `made`). */
static int creates(enum op op) {
    return op == CREATE || op == DUP || op == DUP_ENV || op == CREATE_ENV || op == DESERIALIZE || op == CHECK_HINTS ||
           op == CHECK_VOCABULARY;
}

/* The model's side of a successful step. */
static void apply(const struct step *s, MPI_Info made) {
    int o = s->obj;
    switch (s->op) {
    case CREATE:
        model_init(&expect[o], MODEL_CAP);
        break;
    case SET:
        model_set(&expect[o], s->key, s->value);
        break;
    case DELETE:
        model_delete(&expect[o], s->key);
        break;
    case DUP:
    case DESERIALIZE:
        model_copy(&expect[o], &expect[s->src], MODEL_CAP);
        from_env[o] = from_env[s->src];
        if (from_env[o]) MPI_Info_dup(reference[s->src], &reference[o]);
        break;
    case DUP_ENV:
        model_init(&expect[o], MODEL_CAP);
        from_env[o] = 1;
        MPI_Info_dup(MPI_INFO_ENV, &reference[o]);
        break;
    case CREATE_ENV:
        model_init(&expect[o], MODEL_CAP);
        from_env[o] = 1;
        MPI_Info_create_env(3, env_argv, &reference[o]);
        break;
    case SET_BOOL:
        model_set(&expect[o], s->key, s->arg ? "true" : "false");
        break;
    case SET_INT64: {
        char text[32];
        snprintf(text, sizeof text, "%lld", s->num);
        model_set(&expect[o], s->key, text);
        break;
    }
    case MERGE:
        if (from_env[o] || from_env[s->src]) exit(2); /* the script merges no such objects */
        if (s->src != o) /* merging an object into itself changes nothing */
            for (int i = 0; i < expect[s->src].n; i++)
                if (s->arg || model_find(&expect[o], expect[s->src].k[i]) < 0)
                    model_set(&expect[o], expect[s->src].k[i], expect[s->src].v[i]);
        break;
    case MERGE_ENV:
        if (!from_env[o]) exit(2);
        MPIX_Info_merge(reference[o], MPI_INFO_ENV, s->arg);
        break;
    case TEXT:
    case FILE_TEXT:
        if (from_env[o]) exit(2);
        for (int i = 0; i < s->npairs; i++)
            if (s->num || model_find(&expect[o], s->pairs[2 * i]) < 0)
                model_set(&expect[o], s->pairs[2 * i], s->pairs[2 * i + 1]);
        break;
    case CHECK_HINTS:
    case CHECK_VOCABULARY:
        if (from_env[s->src]) exit(2); /* the script checks no such object */
        model_init(&expect[o], MODEL_CAP);
        for (int i = 0; i < s->npairs; i++) model_set(&expect[o], s->pairs[2 * i], s->pairs[2 * i + 1]);
        break;
    case FREE:
        model_free(&expect[o]);
        if (from_env[o]) MPI_Info_free(&reference[o]);
        from_env[o] = 0;
        live[o] = 0;
        return;
    default:
        break;
    }
    if (s->op == SET && from_env[o]) MPI_Info_set(reference[o], s->key, s->value);
    if (creates(s->op)) {
        handle[o] = made;
        live[o] = 1;
    }
}

/* The read-only calls on one key: they must succeed and allocate nothing. */
static void reads(const struct step *s) {
    char value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY];
    int flag = 0, len = 0, nkeys = 0, buflen = (int)sizeof value;
    MPI_Info info = s->obj == ENV_OBJ ? MPI_INFO_ENV : handle[s->obj];
    long before = allocations;
    fail_at = -1; /* any allocation now is counted but none fails */
    armed = 1;
    int rc = MPI_Info_get(info, s->key, (int)sizeof value - 1, value, &flag);
    rc |= MPI_Info_get_valuelen(info, s->key, &len, &flag);
    rc |= MPI_Info_get_string(info, s->key, &buflen, value, &flag);
    rc |= MPI_Info_get_nkeys(info, &nkeys);
    rc |= MPI_Info_get_nthkey(info, nkeys - 1, key);
    /* The MPIX_ reads: a value that is not of the type is MPI_ERR_INFO_VALUE, and allocates
     * nothing either. */
    static const char *const choices[] = {"true", "false"};
    static char bytes[16384];
    int typed_rc[6], iv, size = (int)sizeof bytes, equal = 0;
    int64_t v64;
    buflen = (int)sizeof value;
    typed_rc[0] = MPIX_Info_get_bool(info, s->key, &iv, &flag);
    typed_rc[1] = MPIX_Info_get_int(info, s->key, &iv, &flag);
    typed_rc[2] = MPIX_Info_get_int64(info, s->key, &v64, &flag);
    typed_rc[3] = MPIX_Info_get_enum(info, s->key, 2, choices, &iv, &flag);
    typed_rc[4] = MPIX_Info_get_nitems(info, s->key, &iv, &flag);
    typed_rc[5] = MPIX_Info_get_item(info, s->key, 0, &buflen, value, &flag);
    rc |= MPIX_Info_serialize(info, &size, bytes);
    rc |= MPIX_Info_equal(info, info, 1, &equal);
    armed = 0;
    CHECK(rc == MPI_SUCCESS);
    CHECK(allocations == before);
    CHECK(equal == 1 && size <= (int)sizeof bytes);
    for (int i = 0; i < 6; i++) CHECK(typed_rc[i] == MPI_SUCCESS || typed_rc[i] == MPI_ERR_INFO_VALUE);
}

/* In a run with no failures: the allocations before the first hint check and the number it
 * made (the built-in vocabulary's read, then the check). */
static long first_check_from = -1, first_check_allocations;

/* Runs the script with allocation number `n` failing (0: none). Returns the number of
 * allocations the script made, and counts checks as it goes. */
static long run_script(long n) {
    allocations = 0;
    for (int i = 0; i < steps; i++) {
        const struct step *s = &script[i];
        long allocations_before = allocations;
        if (s->op == READS) {
            long keep = fail_at;
            reads(s);
            fail_at = keep;
            continue;
        }
        if (s->op == DUP && live[s->obj]) { /* the slot's old object goes first */
            MPI_Info old = handle[s->obj];
            CHECK_RC(MPI_Info_free(&old), MPI_SUCCESS);
            model_free(&expect[s->obj]);
            if (from_env[s->obj]) MPI_Info_free(&reference[s->obj]);
            from_env[s->obj] = 0;
            live[s->obj] = 0;
        }
        take_snapshots();
        MPI_Info made;
        memset(&made, 0xA5, sizeof made);
        MPI_Info sentinel = made;
        failed_here = 0;
        fail_at = n;
        int rc = call(s, &made);
        if (rc == MPI_ERR_NO_MEM) {
            CHECK(failed_here);
            CHECK(unchanged_since_snapshots());
            if (s->op != FREE) CHECK(made == sentinel);
            fail_at = 0;
            if (s->op == FREE) made = handle[s->obj];
            rc = call(s, &made); /* again, with nothing failing */
        } else {
            for (int o = 0; o < OBJECTS; o++) free(snapshot[o]), snapshot[o] = NULL;
        }
        CHECK_RC(rc, MPI_SUCCESS);
        if (n == 0 && first_check_from < 0 && (s->op == CHECK_HINTS || s->op == CHECK_VOCABULARY)) {
            first_check_from = allocations_before;
            first_check_allocations = allocations - allocations_before;
        }
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "step %d (op %d) failed with %d, allocation %ld failing\n", i, s->op, rc, n);
            return allocations;
        }
        apply(s, made);
        if (live[s->obj]) {
            int ok = as_expected(s->obj);
            CHECK(ok);
            if (!ok) fprintf(stderr, "step %d (op %d): object %d differs, allocation %ld failing\n", i, s->op, s->obj, n);
        }
    }
    return allocations;
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    /* The hints file of the FILE_TEXT step, written before any child starts. */
    snprintf(file_path, sizeof file_path, "/tmp/nomem_hints.%ld", (long)getpid());
    FILE *hints = fopen(file_path, "wb");
    if (!hints || fputs(FILE_TEXT_CONTENTS, hints) < 0 || fclose(hints) != 0) return 2;
    build_script();

    /* How many allocations does the script make when none fails? In a child, so that every
     * child below starts, as this one, with the library untouched. */
    int pipefd[2];
    if (pipe(pipefd) != 0) return 2;
    pid_t pid = fork();
    if (pid == 0) {
        long counted[3] = {run_script(0), first_check_from, 0};
        /* The same check again, the vocabulary read now: the difference is the read's share. */
        MPI_Info again, d;
        if (MPI_Info_create(&again) != MPI_SUCCESS) _exit(3);
        for (int i = 0; i < 6; i++)
            if (MPI_Info_set(again, HINTS_PAIRS[2 * i], HINTS_PAIRS[2 * i + 1]) != MPI_SUCCESS) _exit(3);
        long before = allocations;
        armed = 1;
        fail_at = -1;
        int rc = MPIX_Info_check(again, "mpich", &d);
        armed = 0;
        CHECK_RC(rc, MPI_SUCCESS);
        counted[2] = first_check_allocations - (allocations - before);
        if (rc == MPI_SUCCESS) MPI_Info_free(&d);
        MPI_Info_free(&again);
        if (write(pipefd[1], counted, sizeof counted) != (ssize_t)sizeof counted) _exit(3);
        _exit(check_report() == 0 ? 0 : 1);
    }
    long counted[3] = {0, 0, 0};
    int status;
    CHECK(read(pipefd[0], counted, sizeof counted) == (ssize_t)sizeof counted);
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    long total = counted[0], read_from = counted[1], read_allocations = counted[2];
    CHECK(total > 50); /* the script allocates: otherwise the counting is broken */
    CHECK(read_from > 0 && read_allocations > 1000); /* the built-in vocabulary was read there */

    long failed_points = 0, skipped = 0;
    int every = getenv("NOMEM_ALL") != NULL;
    for (long n = 1; n <= total; n++) {
        long in_read = n - read_from; /* 1 .. read_allocations inside the vocabulary's read */
        if (!every && in_read > SAMPLE_EDGE && in_read <= read_allocations - SAMPLE_EDGE && in_read % SAMPLE_STRIDE != 0) {
            skipped++;
            continue;
        }
        if (pipe(pipefd) != 0) return 2;
        pid = fork();
        if (pid == 0) {
            close(pipefd[0]);
            check_passed_count = check_failed_count = 0; /* report this child's checks only */
            run_script(n);
            int counts[2] = {check_passed_count, check_failed_count};
            if (write(pipefd[1], counts, sizeof counts) != (ssize_t)sizeof counts) _exit(3);
            _exit(0);
        }
        close(pipefd[1]);
        int counts[2] = {0, 0};
        ssize_t got = read(pipefd[0], counts, sizeof counts);
        close(pipefd[0]);
        waitpid(pid, &status, 0);
        int died = got != (ssize_t)sizeof counts || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
        if (died)
            fprintf(stderr, "allocation %ld failing: the child died (status %#x)\n", n, (unsigned)status);
        CHECK(!died);
        check_passed_count += counts[0];
        check_failed_count += counts[1];
        if (getenv("NOMEM_VERBOSE")) fprintf(stderr, "n=%ld got=%zd counts %d %d status %#x\n", n, got, counts[0], counts[1], (unsigned)status);
        if (counts[1] || died) failed_points++;
    }
    /* Every argument is checked before anything is allocated: with the first allocation
     * failing, a NULL among create_env's arguments is still MPI_ERR_ARG, not MPI_ERR_NO_MEM. */
    char prog[] = "prog", last[] = "x";
    char *with_null[] = {prog, NULL, last};
    MPI_Info untouched_handle = MPI_INFO_NULL;
    allocations = 0;
    fail_at = 1;
    armed = 1;
    CHECK_RC(MPI_Info_create_env(3, with_null, &untouched_handle), MPI_ERR_ARG);
    armed = 0;
    CHECK(untouched_handle == MPI_INFO_NULL);
    /* The hint checks with the built-in vocabulary unread in this process and its read failing
     * at once: a NULL diagnostics is MPI_ERR_ARG, checked before anything is allocated; a
     * target or a vocabulary of the caller's can only be judged once the vocabularies are
     * read, so they are MPI_ERR_ARG or MPI_ERR_NO_MEM (want -1: out of memory may come first,
     * as the doc comments say); valid arguments are MPI_ERR_NO_MEM. Nothing is written. */
    MPI_Info hints_object;
    CHECK_RC(MPI_Info_create(&hints_object), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(hints_object, "cb_buffer_size", "16M"), MPI_SUCCESS);
    struct {
        const char *vocabulary, *targets;
        int null_out, want;
    } early[] = {{NULL, "mpich", 1, MPI_ERR_ARG},       {NULL, "romio", 0, -1},
                 {NULL, "mpich,", 0, -1},      {"{", "mpich", 0, -1},
                 {MYLIB_VOCABULARY, "nobody", 0, -1}, {NULL, "mpich", 0, MPI_ERR_NO_MEM},
                 {MYLIB_VOCABULARY, "mylib", 0, MPI_ERR_NO_MEM}};
    for (size_t i = 0; i < sizeof early / sizeof *early; i++) {
        MPI_Info d = MPI_INFO_NULL;
        allocations = 0;
        fail_at = 1;
        armed = 1;
        int rc = early[i].vocabulary
                     ? MPIX_Info_check_with_vocab(hints_object, early[i].vocabulary, early[i].targets, early[i].null_out ? NULL : &d)
                     : MPIX_Info_check(hints_object, early[i].targets, early[i].null_out ? NULL : &d);
        armed = 0;
        if (early[i].want == -1)
            CHECK(rc == MPI_ERR_ARG || rc == MPI_ERR_NO_MEM);
        else
            CHECK_RC(rc, early[i].want);
        CHECK(d == MPI_INFO_NULL);
        if (early[i].want != -1 && rc != early[i].want) fprintf(stderr, "  (case %zu: targets \"%s\")\n", i, early[i].targets);
    }
    CHECK_RC(MPI_Info_free(&hints_object), MPI_SUCCESS);

    unlink(file_path);
    printf("nomem: %ld allocation points failed one at a time (%ld of the built-in vocabulary's read skipped), %ld of "
           "them mishandled\n", total - skipped, skipped, failed_points);
    return check_report();
}
