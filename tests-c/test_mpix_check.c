/* test_mpix_check.c - MPIX_Info_check and MPIX_Info_check_with_vocab (the hint checker,
 * docs/hints.md), through their MPIX_ and PMPIX_ names.
 *
 * - Every code, from pairs of our own, as the value's "code: " prefix and, where the message
 *   is made of our own text and numbers, the whole value: unit-suffix (cb_buffer_size=16M for
 *   mpich and for mpi), unknown-key (a near miss names the key meant), bad-value (Enable for
 *   romio_cb_write), out-of-range (both bounds), not-read-by-target (a ROMIO key for openmpi),
 *   too-long-for-target (a 36-character key, a 300-character value for openmpi), conflict (one
 *   of data/hints.json's "conflicts", its values compared without case, and a key set beside
 *   its alias to another value); a key with several findings gets its first, in the documented
 *   order of checking.
 * - A clean object and an empty one give an empty diagnostics object; the diagnostics keys come
 *   in the object's order, one pair per key with a finding; the object checked never changes;
 *   MPI_INFO_ENV is accepted; NULL targets are all five; blanks around names are dropped; a
 *   targets list of 1023 bytes is taken and one of 1024 refused.
 * - Every error class in the documented checking order (a bad handle decides over every other
 *   bad argument), with *diagnostics untouched and no object created: the handle table hands
 *   out fresh slots in order while fewer than 4096 slots wait in its quarantine
 *   (src/handles.rs), so the slot of an object created after the calls tells whether any of
 *   them created one (created_since below; it checks itself first).
 * - The vocabulary variant: a small vocabulary of our own (target "mylib", a bool key) is
 *   checked, its target accepted in targets, the built-in keys still checked, a key it
 *   describes too is read by both vocabularies' readers; a vocabulary of exactly MPIX_INFO_TEXT_MAX
 *   bytes is read and one byte more (or no NUL before a guard page) refused; a message longer
 *   than a value holds is cut at 1023 bytes, before a character that would not fit; 59 targets of
 *   our own (64 in all) are taken, 60 refused; NULL, malformed JSON and JSON that is no
 *   vocabulary are MPI_ERR_ARG. With an empty vocabulary it gives what MPIX_Info_check gives,
 *   so the cases above run through all four entry points.
 * - Threads: the very first calls in the process (which read the built-in vocabulary) made by
 *   eight threads released at once, then threads checking one shared object, their own
 *   objects, and an object another thread keeps changing (each check sees one state of it).
 *   Fewer rounds under valgrind (MPI_INFO_UNDER_VALGRIND). */
#include "mpix_support.h"

#include <pthread.h>
#include <stdint.h>

#define SENT_HANDLE MPI_Info_fromint(0x5A5A5A5A)

typedef int (*check_fn)(MPI_Info, const char *, MPI_Info *);
typedef int (*vcheck_fn)(MPI_Info, const char *, const char *, MPI_Info *);
static const check_fn CHECKS[2] = {MPIX_Info_check, PMPIX_Info_check};
static const vcheck_fn VCHECKS[2] = {MPIX_Info_check_with_vocab, PMPIX_Info_check_with_vocab};

/* A vocabulary that adds nothing: the vocabulary variant with it is MPIX_Info_check. */
static const char EMPTY_VOCABULARY[] = "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [], \"keys\": []}";

/* A layered library's own hints: a bool, an integer with a range, and its own description of
 * striping_factor (mylib then reads it too, beside the built-in readers). */
static const char MYLIB_VOCABULARY[] =
    "{\"format\": \"mpi-info-hints\", \"version\": 1,\n"
    " \"targets\": [{\"name\": \"mylib\", \"title\": \"My I/O library\", \"read\": \"mylib 1.0\"}],\n"
    " \"keys\": [\n"
    "  {\"key\": \"mylib_cache\", \"objects\": [\"file\"], \"type\": \"bool\", \"summary\": \"cache writes\",\n"
    "   \"readers\": [{\"target\": \"mylib\", \"parse\": \"words\", \"accepts\": [\"true\", \"false\"],\n"
    "                \"true\": [\"true\"], \"false\": [\"false\"], \"source\": \"src/open.c\"}]},\n"
    "  {\"key\": \"mylib_depth\", \"objects\": [\"file\"], \"type\": \"int\", \"min\": 1, \"max\": 8,\n"
    "   \"summary\": \"queue depth\",\n"
    "   \"readers\": [{\"target\": \"mylib\", \"parse\": \"integer\", \"source\": \"src/queue.c\"}]},\n"
    "  {\"key\": \"striping_factor\", \"objects\": [\"file\"], \"type\": \"int\", \"summary\": \"ours\",\n"
    "   \"readers\": [{\"target\": \"mylib\", \"parse\": \"integer\", \"source\": \"src/stripe.c\"}]}\n"
    " ]}";

/* The four entry points: [0] MPIX_Info_check, [1] PMPIX_Info_check, [2] and [3] the
 * vocabulary variant by both names with the empty vocabulary. */
#define APIS 4
static const char *const API_NAME[APIS] = {"MPIX_Info_check", "PMPIX_Info_check",
                                           "MPIX_Info_check_with_vocab", "PMPIX_Info_check_with_vocab"};

static int call_check(int api, MPI_Info info, const char *targets, MPI_Info *diagnostics) {
    if (api < 2) return CHECKS[api](info, targets, diagnostics);
    return VCHECKS[api - 2](info, EMPTY_VOCABULARY, targets, diagnostics);
}

/* ---------------------------------------------------------------- helpers */

/* The value of key in d (NUL-terminated in out, MPI_MAX_INFO_VAL bytes), or NULL if absent. */
static const char *value_of(MPI_Info d, const char *key, char *out) {
    int flag = 0;
    if (MPI_Info_get(d, key, MPI_MAX_INFO_VAL - 1, out, &flag) != MPI_SUCCESS || !flag) return NULL;
    return out;
}

static int nkeys(MPI_Info d) {
    int n = -1;
    if (MPI_Info_get_nkeys(d, &n) != MPI_SUCCESS) return -1;
    return n;
}

/* Checks info (which must not change) for targets through api: success, a new object that is
 * neither info nor the sentinel. Returns it, or MPI_INFO_NULL after a failed check. */
static MPI_Info diagnose_with(int api, MPI_Info info, const char *targets) {
    size_t len;
    char *before = dump(info, &len);
    MPI_Info d = SENT_HANDLE;
    int rc = call_check(api, info, targets, &d);
    CHECK_RC(rc, MPI_SUCCESS);
    CHECK(same_as(info, before, len));
    free(before);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "  %s(targets \"%s\") failed\n", API_NAME[api], targets ? targets : "(NULL)");
        return MPI_INFO_NULL;
    }
    CHECK(d != SENT_HANDLE && d != info && d != MPI_INFO_NULL && d != MPI_INFO_ENV);
    return d;
}

/* What one diagnostics pair must be: key, and a value that starts with `starts` and contains
 * `contains` (NULL: nothing more), or is exactly `starts` when exact is 1. */
typedef struct {
    const char *key;
    const char *starts;
    const char *contains;
    int exact;
} finding;

/* 1 if d holds exactly the n findings f, in this order. */
static int holds_findings(MPI_Info d, const finding *f, int n) {
    int ok = nkeys(d) == n;
    if (!ok) fprintf(stderr, "  %d diagnostics, expected %d\n", nkeys(d), n);
    for (int i = 0; ok && i < n; i++) {
        char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
        if (MPI_Info_get_nthkey(d, i, key) != MPI_SUCCESS || strcmp(key, f[i].key) != 0) {
            fprintf(stderr, "  diagnostics key %d is not %s\n", i, f[i].key);
            ok = 0;
        } else if (!value_of(d, key, value)) {
            ok = 0;
        } else if (f[i].exact ? strcmp(value, f[i].starts) != 0
                              : strncmp(value, f[i].starts, strlen(f[i].starts)) != 0 ||
                                    (f[i].contains && !strstr(value, f[i].contains))) {
            fprintf(stderr, "  %s -> \"%s\"\n  expected %s \"%s\"%s%s\n", key, value,
                    f[i].exact ? "exactly" : "a value starting with", f[i].starts,
                    f[i].contains ? " and containing " : "", f[i].contains ? f[i].contains : "");
            ok = 0;
        }
    }
    return ok;
}

/* Checks the n pairs kv through api for targets: the diagnostics must be the m findings. */
static void expect(int api, const char *targets, const char *const *kv, int n, const finding *f, int m, int line) {
    MPI_Info info = make_info(kv, n);
    MPI_Info d = diagnose_with(api, info, targets);
    if (d != MPI_INFO_NULL) {
        int ok = holds_findings(d, f, m);
        CHECK(ok);
        if (!ok) fprintf(stderr, "  (line %d, %s, targets \"%s\")\n", line, API_NAME[api], targets ? targets : "(NULL)");
        CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    }
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}
#define EXPECT_FINDINGS(api, targets, kv, f) expect(api, targets, kv, (int)(sizeof kv / sizeof *kv / 2), f, (int)(sizeof f / sizeof *f), __LINE__)
#define EXPECT_CLEAN(api, targets, kv) expect(api, targets, kv, (int)(sizeof kv / sizeof *kv / 2), NULL, 0, __LINE__)

/* 1 if the diagnostics of a and of b (each checked through api for its targets) are the same
 * pairs in the same order. */
static int same_diagnostics(int api, MPI_Info a, const char *ta, MPI_Info b, const char *tb) {
    MPI_Info da = diagnose_with(api, a, ta), db = diagnose_with(api, b, tb);
    int equal = -1;
    if (da == MPI_INFO_NULL || db == MPI_INFO_NULL) return 0;
    CHECK_RC(MPIX_Info_equal(da, db, 1, &equal), MPI_SUCCESS);
    if (equal != 1) fprintf(stderr, "  targets \"%s\" and \"%s\" differ (%s)\n", ta ? ta : "(NULL)", tb ? tb : "(NULL)", API_NAME[api]);
    MPI_Info_free(&da);
    MPI_Info_free(&db);
    return equal == 1;
}

/* The slot of a new object's handle (the low 20 bits, src/handles.rs): the object is freed at
 * once. While fewer than 4096 freed slots wait, each new object takes the next fresh slot, so
 * created_since(s) is the number of objects created since probe_slot() returned s. */
static int probe_slot(void) {
    MPI_Info h;
    if (MPI_Info_create(&h) != MPI_SUCCESS) exit(2);
    int slot = MPI_Info_toint(h) & 0xFFFFF;
    if (MPI_Info_free(&h) != MPI_SUCCESS) exit(2);
    return slot;
}

static int created_since(int slot) { return probe_slot() - slot - 1; }

/* ---------------------------------------------------------------- the first calls, raced */

#define RACERS 8
static pthread_barrier_t race_start;
static MPI_Info race_object;
static MPI_Info race_result[RACERS];
static int race_rc[RACERS];

static void *racer(void *arg) {
    int t = (int)(intptr_t)arg;
    pthread_barrier_wait(&race_start);
    /* Half through each entry point: the vocabulary variant reads the built-in one too. */
    if (t % 2)
        race_rc[t] = MPIX_Info_check_with_vocab(race_object, EMPTY_VOCABULARY, "mpich", &race_result[t]);
    else
        race_rc[t] = MPIX_Info_check(race_object, "mpich", &race_result[t]);
    return NULL;
}

static const char *const RACE_PAIRS[] = {"cb_buffer_size", "16M", "cb_bufer_size", "4", "romio_cb_write", "Enable"};
static const finding RACE_FINDINGS[] = {
    {"cb_buffer_size", "unit-suffix: for mpich: '16M' is read as 16: the 'M' is dropped; 16M is 16777216", NULL, 1},
    {"cb_bufer_size", "unknown-key: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'?", NULL, 1},
    {"romio_cb_write", "bad-value: for mpich: 'Enable' is not one of ", "(spelled exactly)", 0},
};

static void test_first_calls_raced(void) {
    race_object = make_info(RACE_PAIRS, 3);
    pthread_t threads[RACERS];
    pthread_barrier_init(&race_start, NULL, RACERS);
    for (int t = 0; t < RACERS; t++) {
        race_result[t] = SENT_HANDLE;
        if (pthread_create(&threads[t], NULL, racer, (void *)(intptr_t)t) != 0) exit(2);
    }
    for (int t = 0; t < RACERS; t++) pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&race_start);
    for (int t = 0; t < RACERS; t++) {
        CHECK_RC(race_rc[t], MPI_SUCCESS);
        if (race_rc[t] != MPI_SUCCESS) continue;
        CHECK(holds_findings(race_result[t], RACE_FINDINGS, 3));
        for (int u = 0; u < t; u++)
            if (race_rc[u] == MPI_SUCCESS) CHECK(race_result[u] != race_result[t]);
    }
    for (int t = 0; t < RACERS; t++)
        if (race_rc[t] == MPI_SUCCESS) CHECK_RC(MPI_Info_free(&race_result[t]), MPI_SUCCESS);
    CHECK(holds(race_object, RACE_PAIRS, 3));
    CHECK_RC(MPI_Info_free(&race_object), MPI_SUCCESS);
}

/* ---------------------------------------------------------------- every code */

static void test_codes(int api) {
    const char *const m16[] = {"cb_buffer_size", "16M"};
    const finding mpich16[] = {{"cb_buffer_size", "unit-suffix: for mpich: '16M' is read as 16: the 'M' is dropped; 16M is 16777216", NULL, 1}};
    EXPECT_FINDINGS(api, "mpich", m16, mpich16);
    const finding mpi16[] = {{"cb_buffer_size", "unit-suffix: for mpi: '16M' is not read: it takes a plain integer, without the 'M'; 16M is 16777216", NULL, 1}};
    EXPECT_FINDINGS(api, "mpi", m16, mpi16);
    /* All targets: mpi's finding comes first (the vocabulary's order of targets). */
    EXPECT_FINDINGS(api, NULL, m16, mpi16);
    const char *const k4[] = {"cb_buffer_size", "4k"};
    const finding mpich4k[] = {{"cb_buffer_size", "unit-suffix: for mpich: '4k' is read as 4: the 'k' is dropped; 4k is 4096", NULL, 1}};
    EXPECT_FINDINGS(api, "mpich", k4, mpich4k);

    const char *const near[] = {"cb_bufer_size", "4"};
    const finding near_f[] = {{"cb_bufer_size", "unknown-key: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'?", NULL, 1}};
    EXPECT_FINDINGS(api, "mpich", near, near_f);
    EXPECT_FINDINGS(api, NULL, near, near_f);
    const char *const far[] = {"no_such_hint_at_all", "1"};
    const finding far_f[] = {{"no_such_hint_at_all", "unknown-key: unknown hint 'no_such_hint_at_all': no vocabulary has it", NULL, 1}};
    EXPECT_FINDINGS(api, "mpich", far, far_f);
    /* A key that is not UTF-8, and one with a control character, shown escaped. */
    const char *const odd[] = {"\xff\xfe", "1", "tab\there", "2"};
    const finding odd_f[] = {{"\xff\xfe", "unknown-key: unknown hint '\\xff\\xfe': no vocabulary has it", NULL, 1},
                             {"tab\there", "unknown-key: unknown hint 'tab\\there': no vocabulary has it", NULL, 1}};
    EXPECT_FINDINGS(api, "mpich", odd, odd_f);

    const char *const enable_cap[] = {"romio_cb_write", "Enable"};
    const finding bad[] = {{"romio_cb_write", "bad-value: for mpich: 'Enable' is not one of ", "(spelled exactly)", 0}};
    EXPECT_FINDINGS(api, "mpich", enable_cap, bad);
    const char *const enable[] = {"romio_cb_write", "enable"};
    EXPECT_CLEAN(api, "mpich", enable);
    const char *const blanks[] = {"romio_cb_write", " enable"};
    const finding blanks_f[] = {{"romio_cb_write", "bad-value: for mpich: ' enable' is not taken with blanks around it", NULL, 0}};
    EXPECT_FINDINGS(api, "mpich", blanks, blanks_f);
    const char *const not_int[] = {"cb_nodes", "four"};
    const finding not_int_f[] = {{"cb_nodes", "bad-value: for mpi: 'four' is not read: it takes a plain integer", NULL, 0}};
    EXPECT_FINDINGS(api, "mpi", not_int, not_int_f);
    const finding atoi_f[] = {{"cb_nodes", "bad-value: for mpich: 'four' is read as 0: it takes an integer", NULL, 1}};
    EXPECT_FINDINGS(api, "mpich", not_int, atoi_f);

    const char *const low[] = {"cb_buffer_size", "0", "romio_cb_ds_threshold", "101", "ind_rd_buffer_size", "2147483648"};
    const finding range[] = {
        {"cb_buffer_size", "out-of-range: for mpich: 0 is below the least value it takes, 1", NULL, 1},
        {"romio_cb_ds_threshold", "out-of-range: for mpich: 101 is above the greatest value it takes, 100", NULL, 1},
        {"ind_rd_buffer_size", "out-of-range: for mpich: 2147483648 is above the greatest value it takes, 2147483647; it is read as -2147483648", NULL, 1},
    };
    EXPECT_FINDINGS(api, "mpich", low, range);
    const char *const edges[] = {"cb_buffer_size", "1", "romio_cb_ds_threshold", "100", "ind_rd_buffer_size", "2147483647"};
    EXPECT_CLEAN(api, "mpich", edges);

    /* Another implementation's hint is a note, which MPIX_Info_check leaves out; a spelling of
     * the hint the named release reads is a warning, with it. */
    const char *const romio_only[] = {"romio_cb_write", "enable"};
    EXPECT_CLEAN(api, "openmpi", romio_only);
    EXPECT_CLEAN(api, NULL, romio_only); /* someone reads it */
    const char *const renamed[] = {"striping_unit", "1048576"};
    const finding not_read[] = {{"striping_unit", "not-read-by-target: 'striping_unit' is not read by openmpi 4.1.4; openmpi 4.1.4 reads it as 'stripe_size'", NULL, 1}};
    EXPECT_FINDINGS(api, "openmpi@4.1.4", renamed, not_read);
    EXPECT_CLEAN(api, "openmpi", renamed); /* read from 4.1.6 */
    /* A series: the finding names the releases it holds for (Open MPI read this hint inverted
     * until 5.0.10). */
    const char *const inverted[] = {"collective_buffering", "true"};
    const finding inverted_f[] = {{"collective_buffering", "bad-value: for openmpi 5.0.0 to 5.0.9: 'true' turns it off", NULL, 0}};
    EXPECT_FINDINGS(api, "openmpi@5.0", inverted, inverted_f);
    EXPECT_CLEAN(api, "openmpi@5.0.10", inverted);

    const char *const long_key[] = {"ompi_comm_coll_xhc_barrier_hierarchy", "numa,socket"};
    const finding long_key_f[] = {{"ompi_comm_coll_xhc_barrier_hierarchy",
                                   "too-long-for-target: for openmpi: a key has at most 35 characters, this one has 36; openmpi's MPI_Info_set refuses it", NULL, 1}};
    EXPECT_FINDINGS(api, "openmpi@main", long_key, long_key_f); /* coll/xhc: main only */
    const finding long_key_not_read[] = {{"ompi_comm_coll_xhc_barrier_hierarchy", "not-read-by-target: ", NULL, 0}};
    EXPECT_FINDINGS(api, NULL, long_key, long_key_not_read); /* not read, the first of its findings */
    char *v300 = repeat('d', 300);
    const char *const long_value[] = {"wdir", v300};
    const finding long_value_f[] = {{"wdir", "too-long-for-target: for openmpi: a value has at most 255 characters, this one has 300; openmpi's MPI_Info_set refuses it", NULL, 1}};
    EXPECT_FINDINGS(api, "openmpi", long_value, long_value_f);
    EXPECT_CLEAN(api, "mpich", long_value); /* MPICH takes 1024 */

    /* A conflict of data/hints.json's: reported on the last key of "when", values compared
     * without case. */
    const char *const conflict[] = {"romio_cb_write", "disable", "romio_no_indep_rw", "true"};
    const finding conflict_f[] = {{"romio_no_indep_rw", "conflict: for mpich: ROMIO reads romio_no_indep_rw after romio_cb_write", NULL, 0}};
    EXPECT_FINDINGS(api, "mpich", conflict, conflict_f);
    const char *const conflict_upper[] = {"romio_no_indep_rw", "TRUE", "romio_cb_write", "DISABLE"};
    EXPECT_FINDINGS(api, "mpich", conflict_upper, conflict_f);
    const char *const no_conflict[] = {"romio_cb_write", "enable", "romio_no_indep_rw", "true"};
    EXPECT_CLEAN(api, "mpich", no_conflict);
    /* An alias set beside the key it names, to another value. */
    const char *const alias[] = {"striping_unit", "4194304", "stripe_size", "1048576"};
    const finding alias_f[] = {{"stripe_size", "conflict: 'stripe_size' is another name of 'striping_unit', which is set to '4194304'; the two differ", NULL, 1}};
    EXPECT_FINDINGS(api, "openmpi", alias, alias_f);

    /* Several findings for one key: the first in the order of checking (unknown or not read,
     * length, value, conflict), one pair per key. */
    const char *const value_and_conflict[] = {"romio_cb_write", "disable", "romio_no_indep_rw", "True"};
    const finding value_first[] = {{"romio_no_indep_rw", "bad-value: for mpich: 'True' is not one of ", NULL, 0}};
    EXPECT_FINDINGS(api, "mpich", value_and_conflict, value_first);
    char *k40 = repeat('q', 40);
    const char *const unknown_long[] = {k40, "1"};
    char unknown_long_text[128];
    snprintf(unknown_long_text, sizeof unknown_long_text, "unknown-key: unknown hint '%s': no vocabulary has it", k40);
    const finding unknown_first[] = {{k40, unknown_long_text, NULL, 1}};
    EXPECT_FINDINGS(api, "openmpi", unknown_long, unknown_first);
    const char *const not_read_long[] = {"striping_unit", v300};
    const finding not_read_first[] = {{"striping_unit", "not-read-by-target: ", NULL, 0}};
    EXPECT_FINDINGS(api, "openmpi@4.1.4", not_read_long, not_read_first);
    const char *const long_and_bad[] = {"cb_buffer_size", v300};
    const finding length_first[] = {{"cb_buffer_size", "too-long-for-target: for openmpi: a value has at most 255 characters", NULL, 0}};
    EXPECT_FINDINGS(api, "openmpi,mpich", long_and_bad, length_first);
    free(v300);
    free(k40);
}

/* ---------------------------------------------------------------- empty, order, unchanged */

static void test_clean_and_order(int api) {
    const char *const good[] = {"cb_buffer_size", "16777216", "romio_cb_write", "enable", "cb_nodes", "4",
                                "striping_factor", "4", "romio_no_indep_rw", "false"};
    EXPECT_CLEAN(api, "mpich", good);
    EXPECT_CLEAN(api, NULL, good);
    MPI_Info empty;
    CHECK_RC(MPI_Info_create(&empty), MPI_SUCCESS);
    const char *const target_lists[] = {NULL, "mpi", "mpich", "openmpi", "pnetcdf", "cray-mpich"};
    for (int i = 0; i < 6; i++) {
        MPI_Info d = diagnose_with(api, empty, target_lists[i]);
        if (d == MPI_INFO_NULL) continue;
        CHECK(nkeys(d) == 0);
        /* A new object of its own, which takes pairs as any other. */
        CHECK_RC(MPI_Info_set(d, "k", "v"), MPI_SUCCESS);
        CHECK(nkeys(d) == 1 && nkeys(empty) == 0);
        CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    }

    /* The object's order, good keys skipped; a key deleted and set again moves to the end. */
    const char *const mixed[] = {"zzz_unknown", "1", "cb_buffer_size", "16777216", "romio_cb_write", "Enable",
                                 "aaa_unknown", "2", "romio_cb_ds_threshold", "101", "cb_nodes", "4", "mmm_unknown", "3"};
    MPI_Info info = make_info(mixed, 7);
    MPI_Info d = diagnose_with(api, info, "mpich");
    const finding order[] = {{"zzz_unknown", "unknown-key: ", NULL, 0},
                             {"romio_cb_write", "bad-value: ", NULL, 0},
                             {"aaa_unknown", "unknown-key: ", NULL, 0},
                             {"romio_cb_ds_threshold", "out-of-range: ", NULL, 0},
                             {"mmm_unknown", "unknown-key: ", NULL, 0}};
    CHECK(holds_findings(d, order, 5));
    MPI_Info_free(&d);
    CHECK_RC(MPI_Info_delete(info, "zzz_unknown"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "zzz_unknown", "again"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "romio_cb_write", "ENABLE"), MPI_SUCCESS); /* now good, keeps its place */
    CHECK_RC(MPI_Info_set(info, "cb_nodes", "4M"), MPI_SUCCESS);           /* now bad, keeps its place */
    d = diagnose_with(api, info, "mpich");
    const finding order2[] = {{"aaa_unknown", "unknown-key: ", NULL, 0},
                              {"romio_cb_ds_threshold", "out-of-range: ", NULL, 0},
                              {"cb_nodes", "unit-suffix: for mpich: '4M' is read as 4", NULL, 0},
                              {"mmm_unknown", "unknown-key: ", NULL, 0},
                              {"zzz_unknown", "unknown-key: ", NULL, 0}};
    CHECK(holds_findings(d, order2, 5));
    MPI_Info_free(&d);

    /* A large object (past any index threshold), keys in a scrambled order, every third one
     * clean: one pair per key with a finding, in the object's order. The object is a duplicate
     * sharing its pairs, and stays equal to what it was duplicated from. */
    MPI_Info big, twin;
    CHECK_RC(MPI_Info_create(&big), MPI_SUCCESS);
    char key[32];
    int perm[300];
    for (int i = 0; i < 300; i++) perm[i] = i;
    for (int i = 299; i > 0; i--) {
        int j = (int)rnd((unsigned)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < 300; i++) {
        if (perm[i] % 3 == 0)
            snprintf(key, sizeof key, "cb_nodes");
        else
            snprintf(key, sizeof key, "xk_%03d", perm[i]);
        CHECK_RC(MPI_Info_set(big, key, perm[i] % 3 == 0 ? "8" : "v"), MPI_SUCCESS);
    }
    CHECK_RC(MPI_Info_dup(big, &twin), MPI_SUCCESS);
    d = diagnose_with(api, twin, "mpich");
    int expected = 0, in_order = 1;
    for (int i = 0; i < 300; i++) {
        if (perm[i] % 3 == 0) continue;
        char want[32], got[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
        snprintf(want, sizeof want, "xk_%03d", perm[i]);
        if (MPI_Info_get_nthkey(d, expected, got) != MPI_SUCCESS || strcmp(got, want) != 0 || !value_of(d, got, value) ||
            strncmp(value, "unknown-key: ", 13) != 0)
            in_order = 0;
        expected++;
    }
    CHECK(in_order);
    CHECK(nkeys(d) == expected && expected == 200);
    int equal = -1;
    CHECK_RC(MPIX_Info_equal(big, twin, 1, &equal), MPI_SUCCESS);
    CHECK(equal == 1);
    MPI_Info_free(&d);
    MPI_Info_free(&twin);
    MPI_Info_free(&big);
    MPI_Info_free(&info);
    MPI_Info_free(&empty);
}

/* ---------------------------------------------------------------- MPI_INFO_ENV, targets */

static void test_env_and_targets(int api) {
    /* MPI_INFO_ENV: accepted, unchanged, and checked as a copy of it is. */
    MPI_Info env_copy;
    CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &env_copy), MPI_SUCCESS);
    const char *const lists[] = {NULL, "mpi", "mpich", "openmpi,pnetcdf"};
    for (int i = 0; i < 4; i++) CHECK(same_diagnostics(api, MPI_INFO_ENV, lists[i], env_copy, lists[i]));
    MPI_Info d = diagnose_with(api, MPI_INFO_ENV, NULL);
    if (d != MPI_INFO_NULL) {
        char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
        for (int i = 0; i < nkeys(d); i++)
            CHECK(MPI_Info_get_nthkey(d, i, key) == MPI_SUCCESS && value_of(env_copy, key, value));
        MPI_Info_free(&d);
    }
    MPI_Info_free(&env_copy);

    /* NULL is all five; the order of the names and blanks around them do not matter. */
    const char *const rich[] = {"cb_buffer_size", "16M", "romio_cb_write", "enable", "wdir", "/tmp",
                                "ompi_comm_coll_xhc_barrier_hierarchy", "numa", "nc_var_align_size", "4096",
                                "striping_unit", "1m", "cb_bufer_size", "1", "access_style", "read_once,sometimes"};
    MPI_Info info = make_info(rich, 8);
    CHECK(same_diagnostics(api, info, NULL, info, "mpi,mpich,openmpi,pnetcdf,cray-mpich"));
    CHECK(same_diagnostics(api, info, NULL, info, "cray-mpich,pnetcdf,openmpi,mpich,mpi"));
    CHECK(same_diagnostics(api, info, NULL, info, " mpich , mpi,openmpi\t,\tpnetcdf ,cray-mpich "));
    CHECK(same_diagnostics(api, info, "mpich", info, "\t mpich  "));
    CHECK(same_diagnostics(api, info, "openmpi,mpich", info, "mpich ,openmpi"));
    /* ... and the lists do make a difference. */
    MPI_Info all = diagnose_with(api, info, NULL), one = diagnose_with(api, info, "openmpi");
    int equal = -1;
    CHECK_RC(MPIX_Info_equal(all, one, 0, &equal), MPI_SUCCESS);
    CHECK(equal == 0);
    MPI_Info_free(&all);
    MPI_Info_free(&one);
    /* The longest targets list: 1023 bytes, blanks included. */
    char *longest = repeat(' ', MPI_MAX_INFO_VAL - 1);
    memcpy(longest + 500, "mpich", 5);
    CHECK(same_diagnostics(api, info, "mpich", info, longest));
    free(longest);
    MPI_Info_free(&info);
}

/* ---------------------------------------------------------------- errors */

/* The vocabulary of the error cases through api: the empty one, or `own` for the variant. */
static MPI_Info live_object, dead_object;
static char *targets_1024, *targets_unterminated;

/* One call that must fail with `want` through api (0, 1: check; 2, 3: the variant, with the
 * given vocabulary), with diagnostics not written, no object created, nothing changed. */
static void fails(int api, MPI_Info info, const char *vocabulary, const char *targets, int null_out, int want, int line) {
    size_t len;
    char *before = dump(live_object, &len);
    MPI_Info d = SENT_HANDLE;
    int slot = probe_slot();
    int rc = api < 2 ? CHECKS[api](info, targets, null_out ? NULL : &d)
                     : VCHECKS[api - 2](info, vocabulary, targets, null_out ? NULL : &d);
    int made = created_since(slot);
    CHECK_RC(rc, want);
    CHECK(d == SENT_HANDLE);
    CHECK(made == 0);
    CHECK(same_as(live_object, before, len));
    if (rc != want || d != SENT_HANDLE || made != 0)
        fprintf(stderr, "  (line %d, %s, targets \"%.40s\", %d objects created)\n", line, API_NAME[api],
                targets ? targets : "(NULL)", made);
    if (rc == MPI_SUCCESS && d != SENT_HANDLE) MPI_Info_free(&d);
    free(before);
}
#define FAILS(api, info, vocabulary, targets, null_out, want) fails(api, info, vocabulary, targets, null_out, want, __LINE__)

static void test_errors(int api) {
    const char *v = api < 2 ? NULL : EMPTY_VOCABULARY;
    /* The handle first: it decides over every other bad argument. */
    MPI_Info bad[] = {MPI_INFO_NULL, dead_object, MPI_Info_fromint(0x2BADF00D), MPI_Info_fromint(-1),
                      MPI_Info_fromint(0), MPI_Info_fromint(1), MPI_Info_fromint(306),
                      MPI_Info_fromint(MPI_Info_toint(live_object) ^ (1 << 20))};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        FAILS(api, bad[i], v, "mpich", 0, MPI_ERR_INFO);
        FAILS(api, bad[i], v, NULL, 0, MPI_ERR_INFO);
        FAILS(api, bad[i], v, "no-such-target", 1, MPI_ERR_INFO);
        FAILS(api, bad[i], v, targets_1024, 1, MPI_ERR_INFO);
        if (api >= 2) {
            FAILS(api, bad[i], NULL, "mpich", 0, MPI_ERR_INFO);
            FAILS(api, bad[i], "{", NULL, 1, MPI_ERR_INFO);
        }
    }
    /* targets: too long, not UTF-8, unknown or empty names. */
    FAILS(api, live_object, v, targets_1024, 0, MPI_ERR_ARG);
    FAILS(api, live_object, v, targets_unterminated, 0, MPI_ERR_ARG);
    FAILS(api, live_object, v, "mpich,\xff", 0, MPI_ERR_ARG);
    const char *const unknown[] = {"romio", "", " ", "\t", ",", "mpich,", ",mpich", "mpich,,openmpi", "mpich, ,openmpi",
                                   "MPICH", "mpich;openmpi", "mpich openmpi", "mpi ch", "mylib", "ompio", "mpich\n",
                                   /* releases: not a version, or a target described without any */
                                   "mpich@four", "mpich@", "mpich@4.0.2.1", "openmpi@v4.1", "mpi@4.1"};
    for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) FAILS(api, live_object, v, unknown[i], 0, MPI_ERR_ARG);
    /* diagnostics NULL. */
    FAILS(api, live_object, v, "mpich", 1, MPI_ERR_ARG);
    FAILS(api, live_object, v, NULL, 1, MPI_ERR_ARG);
    FAILS(api, MPI_INFO_ENV, v, NULL, 1, MPI_ERR_ARG);
}

/* The vocabulary's own errors, through the variant's two names. */
static void test_vocabulary_errors(int api) {
    static const char *const not_vocabularies[] = {
        "", " ", "{", "}", "[]", "null", "42", "\"mpi-info-hints\"", "{}",
        "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [], \"keys\": []} x",
        "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [], \"keys\": [],}",
        "{\"format\": \"mpi-info-hints\", \"version\": 3, \"targets\": [], \"keys\": []}",
        "{\"format\": \"other\", \"version\": 1, \"targets\": [], \"keys\": []}",
        "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [], \"keys\": [], \"extra\": 1}",
        "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [], \"keys\": [{\"key\": \"k\"}]}",
        /* a reader of a target no vocabulary has */
        "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [], \"keys\": [{\"key\": \"k\", \"objects\": [\"file\"],"
        " \"type\": \"bool\", \"summary\": \"s\", \"readers\": [{\"target\": \"nobody\", \"parse\": \"string\", \"source\": \"x\"}]}]}",
        /* a fraction */
        "{\"format\": \"mpi-info-hints\", \"version\": 1.0, \"targets\": [], \"keys\": []}",
        /* a NUL cut: the text ends inside the object */
        "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [], \"keys\": []\0}",
    };
    for (size_t i = 0; i < sizeof not_vocabularies / sizeof *not_vocabularies; i++) {
        FAILS(api, live_object, not_vocabularies[i], "mpich", 0, MPI_ERR_ARG);
        FAILS(api, live_object, not_vocabularies[i], NULL, 0, MPI_ERR_ARG);
    }
    FAILS(api, live_object, NULL, "mpich", 0, MPI_ERR_ARG);
    FAILS(api, live_object, NULL, NULL, 0, MPI_ERR_ARG);
    /* Nesting far past what a vocabulary has, arrays and objects: refused, not a crash. */
    char *deep = repeat('[', 200000);
    FAILS(api, live_object, deep, "mpich", 0, MPI_ERR_ARG);
    for (size_t i = 0; i + 5 < 200000; i += 5) memcpy(deep + i, "{\"a\":", 5);
    FAILS(api, live_object, deep, "mpich", 0, MPI_ERR_ARG);
    free(deep);
    /* Its own target exists only with it. */
    FAILS(api, live_object, EMPTY_VOCABULARY, "mylib", 0, MPI_ERR_ARG);
    FAILS(api, live_object, MYLIB_VOCABULARY, "mylib,", 0, MPI_ERR_ARG);
    FAILS(api, live_object, MYLIB_VOCABULARY, "mylib,nobody", 0, MPI_ERR_ARG);
    FAILS(api, live_object, MYLIB_VOCABULARY, NULL, 1, MPI_ERR_ARG);

    /* MPIX_INFO_TEXT_MAX bytes: read; one more, or no NUL before a guard page: refused (and
     * never read past). */
    char *text = malloc((size_t)MPIX_INFO_TEXT_MAX + 2);
    if (!text) exit(2);
    size_t own = strlen(MYLIB_VOCABULARY);
    memcpy(text, MYLIB_VOCABULARY, own);
    memset(text + own, ' ', (size_t)MPIX_INFO_TEXT_MAX - own);
    text[MPIX_INFO_TEXT_MAX] = '\0';
    MPI_Info d = SENT_HANDLE;
    const char *const kv[] = {"mylib_cache", "yes"};
    MPI_Info info = make_info(kv, 1);
    CHECK_RC(VCHECKS[api - 2](info, text, "mylib", &d), MPI_SUCCESS);
    const finding bad_value[] = {{"mylib_cache", "bad-value: for mylib: 'yes' is not one of true, false (spelled exactly)", NULL, 1}};
    if (d != SENT_HANDLE) {
        CHECK(holds_findings(d, bad_value, 1));
        MPI_Info_free(&d);
    }
    text[MPIX_INFO_TEXT_MAX] = ' ';
    text[MPIX_INFO_TEXT_MAX + 1] = '\0';
    FAILS(api, info, text, "mylib", 0, MPI_ERR_ARG);
    free(text);
    static char *unterminated;
    if (!unterminated) {
        unterminated = guarded_end((size_t)MPIX_INFO_TEXT_MAX + 1);
        memcpy(unterminated, MYLIB_VOCABULARY, own);
        memset(unterminated + own, ' ', (size_t)MPIX_INFO_TEXT_MAX + 1 - own);
    }
    FAILS(api, info, unterminated, "mylib", 0, MPI_ERR_ARG);
    MPI_Info_free(&info);

    /* 64 targets in all (59 of ours and the five built-in) are taken, 65 are not; the last
     * one is usable. */
    for (int ours = 59; ours <= 60; ours++) {
        size_t cap = 64 + (size_t)ours * 96;
        char *many = malloc(cap);
        if (!many) exit(2);
        size_t used = (size_t)snprintf(many, cap, "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [");
        for (int t = 0; t < ours; t++)
            used += (size_t)snprintf(many + used, cap - used, "%s{\"name\": \"t%02d\", \"title\": \"t\", \"read\": \"r\"}", t ? ", " : "", t);
        snprintf(many + used, cap - used, "], \"keys\": []}");
        char last[8];
        snprintf(last, sizeof last, "t%02d", ours - 1);
        if (ours == 59) {
            d = SENT_HANDLE;
            CHECK_RC(VCHECKS[api - 2](live_object, many, last, &d), MPI_SUCCESS);
            if (d != SENT_HANDLE) MPI_Info_free(&d);
            d = SENT_HANDLE;
            CHECK_RC(VCHECKS[api - 2](live_object, many, NULL, &d), MPI_SUCCESS);
            if (d != SENT_HANDLE) MPI_Info_free(&d);
        } else {
            FAILS(api, live_object, many, last, 0, MPI_ERR_ARG);
            FAILS(api, live_object, many, NULL, 0, MPI_ERR_ARG);
        }
        free(many);
    }
}

/* ---------------------------------------------------------------- a vocabulary of our own */

static void vexpect(int api, const char *targets, const char *const *kv, int n, const finding *f, int m, int line) {
    MPI_Info info = make_info(kv, n), d = SENT_HANDLE;
    size_t len;
    char *before = dump(info, &len);
    CHECK_RC(VCHECKS[api](info, MYLIB_VOCABULARY, targets, &d), MPI_SUCCESS);
    CHECK(same_as(info, before, len));
    free(before);
    if (d != SENT_HANDLE) {
        int ok = holds_findings(d, f, m);
        CHECK(ok);
        if (!ok) fprintf(stderr, "  (line %d, targets \"%s\")\n", line, targets ? targets : "(NULL)");
        MPI_Info_free(&d);
    }
    MPI_Info_free(&info);
}
#define VEXPECT(api, targets, kv, f) vexpect(api, targets, kv, (int)(sizeof kv / sizeof *kv / 2), f, (int)(sizeof f / sizeof *f), __LINE__)
#define VEXPECT_CLEAN(api, targets, kv) vexpect(api, targets, kv, (int)(sizeof kv / sizeof *kv / 2), NULL, 0, __LINE__)

static void test_own_vocabulary(int api) {
    const char *const yes[] = {"mylib_cache", "yes"};
    const finding bad[] = {{"mylib_cache", "bad-value: for mylib: 'yes' is not one of true, false (spelled exactly)", NULL, 1}};
    VEXPECT(api, "mylib", yes, bad);
    VEXPECT(api, NULL, yes, bad);
    VEXPECT(api, " mylib ,mpich", yes, bad);
    const char *const fine[] = {"mylib_cache", "true", "mylib_depth", "8"};
    VEXPECT_CLEAN(api, "mylib", fine);
    VEXPECT_CLEAN(api, NULL, fine);
    const char *const deep[] = {"mylib_depth", "9", "mylib_cache", "false"};
    const finding deep_f[] = {{"mylib_depth", "out-of-range: for mylib: 9 is above the greatest value it takes, 8", NULL, 1}};
    VEXPECT(api, "mylib", deep, deep_f);
    /* Known, but not to the targets named: a note (the hint of a library above the MPI), which
     * MPIX_Info_check leaves out. */
    const char *const cache[] = {"mylib_cache", "true"};
    VEXPECT_CLEAN(api, "mpich", cache);
    /* A near miss of our own key. */
    const char *const near[] = {"mylib_cahce", "true"};
    const finding near_f[] = {{"mylib_cahce", "unknown-key: unknown hint 'mylib_cahce'; did you mean 'mylib_cache'?", NULL, 1}};
    VEXPECT(api, "mylib", near, near_f);
    /* The built-in keys are still checked, for the built-in targets named beside ours. */
    const char *const mixed[] = {"mylib_cache", "yes", "cb_buffer_size", "16M", "cb_bufer_size", "1", "romio_cb_write", "enable"};
    const finding mixed_f[] = {
        {"mylib_cache", "bad-value: for mylib: 'yes' is not one of true, false (spelled exactly)", NULL, 1},
        {"cb_buffer_size", "unit-suffix: for mpich: '16M' is read as 16: the 'M' is dropped; 16M is 16777216", NULL, 1},
        {"cb_bufer_size", "unknown-key: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'?", NULL, 1},
    };
    VEXPECT(api, "mylib,mpich", mixed, mixed_f);
    /* The MPI's keys, which mylib does not read: notes, left out. */
    const finding mixed_mylib[] = {mixed_f[0], mixed_f[2]};
    VEXPECT(api, "mylib", mixed, mixed_mylib);
    /* Our description of striping_factor adds mylib as a reader: MPICH still reads it, and
     * mylib's reader comes first. */
    const char *const stripes[] = {"striping_factor", "4"};
    VEXPECT_CLEAN(api, "mpich", stripes);
    VEXPECT_CLEAN(api, "mylib", stripes);
    const char *const stripes_k[] = {"striping_factor", "4k"};
    const finding stripes_k_f[] = {{"striping_factor", "unit-suffix: for mpich: '4k' is read as 4: the 'k' is dropped; 4k is 4096", NULL, 1}};
    VEXPECT(api, "mpich", stripes_k, stripes_k_f);
    const char *const stripes_m[] = {"striping_factor", "4M"};
    const finding stripes_m_f[] = {{"striping_factor", "unit-suffix: for mylib, mpi: '4M' is not read: it takes a plain integer, without the 'M'; 4M is 4194304", NULL, 1}};
    VEXPECT(api, NULL, stripes_m, stripes_m_f);
    /* Without the vocabulary: our keys are unknown, striping_factor is the built-in one. */
    MPI_Info info = make_info(fine, 2), d = SENT_HANDLE;
    CHECK_RC(CHECKS[api](info, "mpich", &d), MPI_SUCCESS);
    if (d != SENT_HANDLE) {
        const finding unknown[] = {{"mylib_cache", "unknown-key: ", NULL, 0}, {"mylib_depth", "unknown-key: ", NULL, 0}};
        CHECK(holds_findings(d, unknown, 2));
        MPI_Info_free(&d);
    }
    MPI_Info_free(&info);
    info = make_info(stripes, 1);
    d = SENT_HANDLE;
    CHECK_RC(CHECKS[api](info, "mpich", &d), MPI_SUCCESS);
    if (d != SENT_HANDLE) {
        CHECK(nkeys(d) == 0);
        MPI_Info_free(&d);
    }
    /* A message longer than a value holds is cut at MPI_MAX_INFO_VAL - 1 bytes, before a
     * character that would not fit whole: here a 2-byte one at bytes 1022 and 1023. */
    char *xs = repeat('x', 1001), *vocabulary = malloc(4096), *cut = malloc(MPI_MAX_INFO_VAL);
    if (!vocabulary || !cut) exit(2);
    snprintf(vocabulary, 4096,
             "{\"format\": \"mpi-info-hints\", \"version\": 1, \"targets\": [{\"name\": \"mylib\", \"title\": \"t\", \"read\": \"r\"}],"
             " \"keys\": [{\"key\": \"mylib_cache\", \"objects\": [\"file\"], \"type\": \"string\", \"summary\": \"s\","
             " \"readers\": [{\"target\": \"mylib\", \"parse\": \"string\", \"source\": \"x\"}]}],"
             " \"conflicts\": [{\"targets\": [\"mylib\"], \"when\": [{\"key\": \"cb_nodes\"}, {\"key\": \"mylib_cache\", \"values\": [\"OFF\"]}],"
             " \"message\": \"%s\xc3\xa9 and more\", \"source\": \"x\"}]}",
             xs);
    snprintf(cut, MPI_MAX_INFO_VAL, "conflict: for mylib: %s", xs);
    CHECK(strlen(cut) == 1022);
    const char *const long_conflict[] = {"mylib_cache", "off", "cb_nodes", "2"};
    MPI_Info_free(&info);
    info = make_info(long_conflict, 2);
    d = SENT_HANDLE;
    CHECK_RC(VCHECKS[api](info, vocabulary, "mylib", &d), MPI_SUCCESS);
    if (d != SENT_HANDLE) {
        const finding cut_f[] = {{"mylib_cache", cut, NULL, 1}};
        CHECK(holds_findings(d, cut_f, 1));
        MPI_Info_free(&d);
    }
    free(xs);
    free(vocabulary);
    free(cut);

    /* MPI_INFO_ENV with it. */
    d = SENT_HANDLE;
    CHECK_RC(VCHECKS[api](MPI_INFO_ENV, MYLIB_VOCABULARY, NULL, &d), MPI_SUCCESS);
    CHECK(d != SENT_HANDLE);
    if (d != SENT_HANDLE) MPI_Info_free(&d);
    MPI_Info_free(&info);
}

/* ---------------------------------------------------------------- threads */

#define WORKERS 8
static int rounds = 60;
static MPI_Info shared_object, changing_object;
static int changer_done; /* read and written with __atomic builtins */

static const char *const SHARED_PAIRS[] = {"cb_buffer_size", "16M", "romio_cb_write", "Enable", "cb_nodes", "4",
                                           "cb_bufer_size", "1"};

/* Worker: the shared object, its own object (cb_buffer_size = <id+1>M), both entry points,
 * and the object the changer changes. */
static void *worker(void *arg) {
    record *r = arg;
    char value[MPI_MAX_INFO_VAL], want[MPI_MAX_INFO_VAL], own_value[16];
    MPI_Info own;
    snprintf(own_value, sizeof own_value, "%dM", r->id + 1);
    const char *const own_pairs[] = {"mylib_cache", r->id % 2 ? "yes" : "true", "cb_buffer_size", own_value};
    own = make_info(own_pairs, 2);
    snprintf(want, sizeof want, "unit-suffix: for mpich: '%dM' is read as %d: the 'M' is dropped; %dM is %d", r->id + 1,
             r->id + 1, r->id + 1, (r->id + 1) << 20);
    for (int i = 0; i < rounds; i++) {
        MPI_Info d = SENT_HANDLE;
        int rc = MPIX_Info_check(shared_object, "mpich", &d);
        EXPECT(r, rc == MPI_SUCCESS && nkeys(d) == 3, rc);
        EXPECT(r, value_of(d, "cb_buffer_size", value) && strcmp(value, RACE_FINDINGS[0].starts) == 0, 0);
        if (rc == MPI_SUCCESS) MPI_Info_free(&d);

        d = SENT_HANDLE;
        rc = i % 2 ? MPIX_Info_check_with_vocab(own, MYLIB_VOCABULARY, "mpich,mylib", &d)
                   : PMPIX_Info_check(own, "mpich", &d);
        EXPECT(r, rc == MPI_SUCCESS, rc);
        if (rc != MPI_SUCCESS) continue;
        EXPECT(r, value_of(d, "cb_buffer_size", value) && strcmp(value, want) == 0, 0);
        int mylib_finding = value_of(d, "mylib_cache", value) != NULL;
        /* Without the vocabulary mylib_cache is unknown; with it, "yes" is a bad value. */
        EXPECT(r, i % 2 ? mylib_finding == (r->id % 2) && nkeys(d) == 1 + (r->id % 2) : mylib_finding && nkeys(d) == 2, i);
        MPI_Info_free(&d);

        /* One state of the changing object or the other, never a mix of a half-set value. */
        d = SENT_HANDLE;
        rc = MPIX_Info_check(changing_object, "mpich", &d);
        EXPECT(r, rc == MPI_SUCCESS, rc);
        if (rc != MPI_SUCCESS) continue;
        const char *v = value_of(d, "cb_buffer_size", value);
        EXPECT(r, v && (strcmp(v, RACE_FINDINGS[0].starts) == 0 ||
                        strcmp(v, "unit-suffix: for mpich: '1G' is read as 1: the 'G' is dropped; 1G is 1073741824") == 0), 0);
        int n = nkeys(d);
        EXPECT(r, n == 1 || n == 2, n);
        MPI_Info_free(&d);
    }
    MPI_Info_free(&own);
    return r;
}

static void *changer(void *arg) {
    record *r = arg;
    for (int i = 0; !__atomic_load_n(&changer_done, __ATOMIC_ACQUIRE); i++) {
        int rc = MPI_Info_set(changing_object, "cb_buffer_size", i % 2 ? "1G" : "16M");
        EXPECT(r, rc == MPI_SUCCESS, rc);
        rc = MPI_Info_set(changing_object, "romio_cb_write", i % 3 ? "enable" : "Enable");
        EXPECT(r, rc == MPI_SUCCESS, rc);
    }
    return r;
}

static void test_threads(void) {
    if (getenv("MPI_INFO_UNDER_VALGRIND")) rounds = 6;
    shared_object = make_info(SHARED_PAIRS, 4);
    const char *const start[] = {"cb_buffer_size", "16M", "romio_cb_write", "enable"};
    changing_object = make_info(start, 2);
    size_t len;
    char *before = dump(shared_object, &len);
    pthread_t threads[WORKERS + 1];
    record records[WORKERS + 1];
    memset(records, 0, sizeof records);
    __atomic_store_n(&changer_done, 0, __ATOMIC_RELEASE);
    if (pthread_create(&threads[WORKERS], NULL, changer, &records[WORKERS]) != 0) exit(2);
    for (int t = 0; t < WORKERS; t++) {
        records[t].id = t;
        if (pthread_create(&threads[t], NULL, worker, &records[t]) != 0) exit(2);
    }
    for (int t = 0; t < WORKERS; t++) pthread_join(threads[t], NULL);
    __atomic_store_n(&changer_done, 1, __ATOMIC_RELEASE);
    pthread_join(threads[WORKERS], NULL);
    for (int t = 0; t <= WORKERS; t++) {
        CHECK(records[t].failures == 0);
        if (records[t].failures)
            fprintf(stderr, "thread %d: %d failures, the first at line %d (%d)\n", t, records[t].failures, records[t].line,
                    records[t].rc);
    }
    CHECK(same_as(shared_object, before, len));
    free(before);
    MPI_Info_free(&shared_object);
    MPI_Info_free(&changing_object);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    /* First of all: no call before this one has read the built-in vocabulary. */
    test_first_calls_raced();

    /* The slot probe works: nothing between two probes, one slot apart. */
    int slot = probe_slot();
    CHECK(created_since(slot) == 0);

    CHECK_RC(MPI_Info_create(&live_object), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(live_object, "cb_buffer_size", "16M"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&dead_object), MPI_SUCCESS);
    MPI_Info keep = dead_object;
    CHECK_RC(MPI_Info_free(&dead_object), MPI_SUCCESS);
    dead_object = keep;
    targets_1024 = repeat(' ', MPI_MAX_INFO_VAL);
    memcpy(targets_1024, "mpich", 5);
    targets_unterminated = guarded_end(MPI_MAX_INFO_VAL);
    memset(targets_unterminated, ' ', MPI_MAX_INFO_VAL);
    memcpy(targets_unterminated, "mpich", 5);

    /* The errors first, while the handle table still hands out fresh slots in order. */
    for (int api = 0; api < APIS; api++) test_errors(api);
    for (int api = 2; api < APIS; api++) test_vocabulary_errors(api);
    for (int api = 0; api < APIS; api++) {
        test_codes(api);
        test_clean_and_order(api);
        test_env_and_targets(api);
    }
    for (int api = 0; api < 2; api++) test_own_vocabulary(api);
    test_threads();

    free(targets_1024);
    CHECK_RC(MPI_Info_free(&live_object), MPI_SUCCESS);
    return check_report();
}
