/* stress.c - concurrency stress (SPEC §9, with §3, §4 and §6): many threads doing random
 * operations on shared and private objects for a bounded time, then the final state checked
 * against what each thread knows it wrote.
 *
 * Not a test_*.c: it runs for a set time. `make test` runs it for 3 s against the shared and
 * the static library, `make stress` for STRESS_SECONDS (60 by default), `make valgrind` for 1 s.
 *
 * Environment: STRESS_SECONDS (default 3; 1 with MPI_INFO_UNDER_VALGRIND), STRESS_THREADS
 * (default 8, at most 64), STRESS_SEED (default from the clock). The seed is printed first; it
 * repeats each thread's choices, not the interleaving of the threads.
 *
 * Each thread picks operations at random:
 *  - shared objects (NSHARED, live the whole run). Thread b owns the keys "t<b>_k<j>" in each:
 *    it sets them (values "<key>=<seq>:<pad>", checkable on their own; most values of one key
 *    have one length, so the library's in-place replace runs too), deletes them and reads them
 *    back exactly; it reads other threads' keys; walks the object with get_nkeys/get_nthkey/get
 *    while others delete (MPI_ERR_ARG or a valid key, never garbage; its own keys in its own
 *    order); and dups it while the others change it.
 *    Before each change of a shared object a thread logs it and counts it as started; after
 *    the call it counts it as done. Whatever a read shows of another thread's keys (one get,
 *    or a whole dup) must be a state that thread's keys were really in at some moment between
 *    the read's start and end: the log is replayed to find one, comparing presence, values and
 *    (for a dup) the order of that thread's keys. A thread's own keys must match its model.
 *  - private objects: a model each (support.h); random set (same-length replaces too), delete,
 *    get with truncation, get_valuelen, get_string, get_nthkey in and out of range, bad
 *    arguments, dup, free and create again; compared in full with the model every few
 *    operations. A dup of a shared object is sometimes adopted as a private object, so later
 *    checks see that it does not follow its source.
 *  - published objects, free racing with use: NPUB slots each hold a handle and a serial
 *    number (the object's "id"). Any thread may swap a slot for a new object, check the old
 *    one and free it, while threads that read the slot before the swap go on calling
 *    get/set/delete/dup/... with it: every such call returns MPI_SUCCESS (and then the object
 *    is the one with that id) or MPI_ERR_INFO (or the class the call may give on a live
 *    object), never anything else.
 *  - stale handles: freed handles go into a shared ring; every call on one returns
 *    MPI_ERR_INFO with its outputs untouched. SPEC §3 promises that only within the 1,000,000
 *    creations after the free, so each create/dup/create_env is counted before it is made,
 *    and a call further out is not judged (a handle read from a published slot likewise).
 *  - MPI_INFO_ENV: nkeys, get, dup and create_env compared with snapshots taken before the
 *    threads start; set, delete and free refused.
 * At the end: each shared object holds exactly the union of the threads' models (nkeys, every
 * value, each thread's keys in its order, no other key); the private objects match their
 * models; the published objects are well formed; the freed handles are dead.
 *
 * Threads record failures per category (the first of each is kept; the first 40 in all are
 * printed as they happen); main() turns each (thread, category) into one check after the
 * join, so the number of checks does not depend on how long the run was. */
#include "support.h"

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <time.h>

#define MAX_THREADS 64
#define NSHARED 3       /* shared objects */
#define KPT 16          /* keys per thread in each shared object */
#define LOG_LEN 4096    /* changes each thread remembers per shared object */
#define NPUB 4          /* published slots */
#define NPRIV 3         /* private objects per thread */
#define POOL 40         /* private keys "p<i>", and three special ones after them */
#define NPOOL (POOL + 3)
#define GRAVE 1024      /* freed handles remembered */
#define REUSE_WINDOW 1000000u
/* Creations are counted just before they are made: at most one per thread is counted late. */
#define WINDOW_MARGIN 10000u

enum { C_SHARED, C_WALK, C_DUP, C_PRIV, C_PUB, C_STALE, C_ENV, NCAT };
static const char *const cat_name[NCAT] = {
    "shared object get/set/delete", "walk racing with deletes", "dup of a changing object",
    "private objects", "free racing with use", "stale handles", "MPI_INFO_ENV"};

enum { OP_SET = 1, OP_DEL = 2 };

typedef struct {
    int id;
    uint64_t rng;
    /* What this thread did to its keys in each shared object; read by the other threads.
     * log entry for change i: i << 16 | op << 8 | j, stored before the change is made. */
    uint64_t log[NSHARED][LOG_LEN];
    uint64_t started[NSHARED]; /* changes whose log entry is stored (the call may be under way) */
    uint64_t done[NSHARED];    /* changes whose call has returned */
    uint64_t pub_started;      /* sequence numbers used in published objects */
    /* Its own view; read only by this thread, and by main() after the join. */
    int present[NSHARED][KPT];
    uint64_t vseq[NSHARED][KPT];
    int order[NSHARED][KPT], norder[NSHARED];
    MPI_Info priv[NPRIV];
    model pm[NPRIV];
    /* counts */
    uint64_t ops, verified, inconclusive, dups_checked, walks, walk_arg, stale_calls,
        stale_live, stale_dead, stale_unjudged, retired, adopted;
    int failures[NCAT];
    char first[NCAT][700];
} tstate;

static int nthreads;
static tstate *T[MAX_THREADS];
static MPI_Info shared_obj[NSHARED];
static uint64_t pub[NPUB]; /* serial << 32 | handle */
static uint64_t pub_serial;
static uint64_t grave[GRAVE], grave_next; /* creation count at the free << 32 | handle */
static uint64_t creations;
static double deadline;
static int printed;
static pthread_barrier_t barrier;
static char *env_snap, *cenv_snap;
static size_t env_len, cenv_len;
static int env_n0;
static int g_argc;
static char **g_argv;
static char key256[MPI_MAX_INFO_KEY + 1], val1024[MPI_MAX_INFO_VAL + 1], long_key[MPI_MAX_INFO_KEY];

/* ---- small things -------------------------------------------------------------------- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t ld(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void st(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rnd64(tstate *t) { return mix64(t->rng += 0x9E3779B97F4A7C15ull); }

/* 0 .. n-1 */
static uint32_t rnd(tstate *t, uint32_t n) {
    return (uint32_t)(((rnd64(t) >> 32) * (uint64_t)n) >> 32);
}

/* Counted before the call, so a count read after a free covers every creation since. */
static void note_create(void) { __atomic_fetch_add(&creations, 1, __ATOMIC_ACQ_REL); }

/* 1 if fewer than REUSE_WINDOW creations (with margin) lie between count c0 and now. */
static int within_window(uint64_t c0) {
    return ld(&creations) - c0 < (uint64_t)(REUSE_WINDOW - WINDOW_MARGIN);
}

#define CALL(t, call) ((t)->ops++, (call))

static void failf(tstate *t, int cat, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void failf(tstate *t, int cat, int line, const char *cond, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (t->failures[cat]++ == 0)
        snprintf(t->first[cat], sizeof t->first[cat], "line %d: %.400s [%.200s]", line, msg, cond);
    if (__atomic_fetch_add(&printed, 1, __ATOMIC_RELAXED) < 40)
        fprintf(stderr, "  thread %d, %s, %s:%d: %s [%s]\n", t->id, cat_name[cat], __FILE__,
                line, msg, cond);
}

/* EXPECT(t, category, condition, printf-format, ...): one verification in a thread. */
#define EXPECT(t, cat, cond, ...)                                                          \
    do {                                                                                   \
        (t)->verified++;                                                                   \
        if (!(cond)) failf((t), (cat), __LINE__, #cond, __VA_ARGS__);                     \
    } while (0)

static void grave_push(MPI_Info h, uint64_t count_at_free) {
    uint64_t i = __atomic_fetch_add(&grave_next, 1, __ATOMIC_RELAXED) % GRAVE;
    st(&grave[i], (count_at_free & 0xFFFFFFFFu) << 32 | (uint32_t)h);
}

/* ---- keys and values ----------------------------------------------------------------- */

static void skey(char *out, int b, int j) { snprintf(out, 32, "t%d_k%d", b, j); }

static int parse_small(const char **p, int *out) {
    const char *s = *p;
    int v = 0, n = 0;
    while (*s >= '0' && *s <= '9' && n < 6) v = v * 10 + (*s++ - '0'), n++;
    if (n == 0 || (n > 1 && **p == '0') || (*s >= '0' && *s <= '9')) return 0;
    *p = s;
    *out = v;
    return 1;
}

/* 1 if k is exactly "t<b>_k<j>" for a thread b and a key j of this run. */
static int parse_skey(const char *k, int *b, int *j) {
    const char *p = k;
    if (*p++ != 't' || !parse_small(&p, b) || *p++ != '_' || *p++ != 'k' || !parse_small(&p, j) ||
        *p != '\0')
        return 0;
    return *b < nthreads && *j < KPT;
}

static uint64_t key_hash(const char *key) {
    uint64_t h = 1469598103934665603ull;
    while (*key) h = (h ^ (unsigned char)*key++) * 1099511628211ull;
    return h;
}

/* The value written for key with sequence number seq: "<key>=<seq, 10 digits>:<pad>". The
 * pad's length and letter follow from key and seq, so any value can be checked on its own
 * (a value cut short, mixed with another or under another key is seen). Three writes in four
 * keep the key's usual length. */
static size_t make_value(const char *key, uint64_t seq, char *out) {
    uint64_t kh = key_hash(key), h = mix64(kh ^ mix64(seq + 1));
    int n = snprintf(out, MPI_MAX_INFO_VAL, "%s=%010" PRIu64 ":", key, seq);
    size_t room = (size_t)(MPI_MAX_INFO_VAL - 1 - n);
    size_t pad = (h & 3) ? (size_t)(kh % 120) : (size_t)((h >> 8) % (room + 1));
    memset(out + n, 'a' + (int)((h >> 32) % 26), pad);
    out[(size_t)n + pad] = '\0';
    return (size_t)n + pad;
}

/* 1 (and *seq) if val is exactly a value make_value writes for key. */
static int value_seq(const char *key, const char *val, uint64_t *seq) {
    size_t kl = strlen(key);
    uint64_t s = 0;
    char expect[MPI_MAX_INFO_VAL];
    if (strncmp(val, key, kl) != 0 || val[kl] != '=') return 0;
    for (size_t i = kl + 1; i < kl + 11; i++) {
        if (val[i] < '0' || val[i] > '9') return 0;
        s = s * 10 + (uint64_t)(val[i] - '0');
    }
    if (val[kl + 11] != ':') return 0;
    make_value(key, s, expect);
    if (strcmp(expect, val) != 0) return 0;
    *seq = s;
    return 1;
}

/* ---- replaying another thread's log -------------------------------------------------- */

/* Whether a read of shared object o saw thread c's keys in a state they were really in after
 * k of c's changes, for some k with lo <= k <= hi (lo: c's changes done before the read
 * began; hi: those started before it ended). covered[j]: the read saw key j, present
 * (pres[j], with sequence v[j]) or not; olist: c's keys in the order the read saw them (NULL
 * when the read saw no order; then only covered keys count). 1: yes; 0: no; -1: cannot
 * tell, c's log no longer goes back far enough. */
static int check_view(const tstate *c, int o, uint64_t lo, uint64_t hi,
                      const unsigned char *covered, const unsigned char *pres, const uint64_t *v,
                      const int *olist, int on) {
    int st_pres[KPT], need[KPT], left = 0;
    uint64_t st_v[KPT], st_ins[KPT];
    if (hi < lo || hi - lo >= LOG_LEN / 2) return -1;
    for (int j = 0; j < KPT; j++) {
        need[j] = covered[j] ? 1 : 0; /* 1: last change unknown; 2: start of the run of sets */
        left += need[j];
        st_pres[j] = 0;
        st_v[j] = st_ins[j] = 0;
    }
    /* Back from lo: each key's state after lo changes, and when it was inserted. */
    for (uint64_t i = lo; left > 0 && i-- > 0;) {
        uint64_t e = ld(&c->log[o][i % LOG_LEN]);
        int j = (int)(e & 0xFF), op = (int)((e >> 8) & 0xFF);
        if ((e >> 16) != i || j >= KPT) return -1; /* overwritten since */
        if (!need[j]) continue;
        if (need[j] == 1) {
            if (op == OP_DEL) {
                need[j] = 0, left--;
            } else {
                st_pres[j] = 1, st_v[j] = st_ins[j] = i;
                if (olist) need[j] = 2;
                else need[j] = 0, left--;
            }
        } else if (op == OP_DEL) {
            need[j] = 0, left--;
        } else {
            st_ins[j] = i;
        }
    }
    /* Keys still open reach back to the first change: never set, or set ever since. */
    for (uint64_t k = lo;; k++) {
        int match = 1, npres = 0;
        for (int j = 0; j < KPT && match; j++) {
            if (!covered[j]) continue;
            if (pres[j] != st_pres[j] || (pres[j] && v[j] != st_v[j])) match = 0;
            npres += st_pres[j];
        }
        if (match && olist) {
            if (on != npres) match = 0;
            for (int i = 0; i + 1 < on && match; i++)
                if (st_ins[olist[i]] >= st_ins[olist[i + 1]]) match = 0;
        }
        if (match) return 1;
        if (k == hi) return 0;
        {
            uint64_t e = ld(&c->log[o][k % LOG_LEN]);
            int j = (int)(e & 0xFF), op = (int)((e >> 8) & 0xFF);
            if ((e >> 16) != k || j >= KPT) return -1;
            if (op == OP_DEL) {
                st_pres[j] = 0;
            } else {
                if (!st_pres[j]) st_ins[j] = k;
                st_pres[j] = 1;
                st_v[j] = k;
            }
        }
    }
}

static void judge(tstate *t, int cat, int line, const tstate *c, int o, uint64_t lo, uint64_t hi,
                  const unsigned char *covered, const unsigned char *pres, const uint64_t *v,
                  const int *olist, int on, const char *what) {
    int r = check_view(c, o, lo, hi, covered, pres, v, olist, on);
    t->verified++;
    if (r < 0) {
        t->inconclusive++;
    } else if (r == 0) {
        char seen[200] = "";
        size_t used = 0;
        for (int j = 0; j < KPT && used + 24 < sizeof seen; j++)
            if (covered[j])
                used += pres[j] ? (size_t)snprintf(seen + used, sizeof seen - used, " k%d=%" PRIu64, j, v[j])
                                : (size_t)snprintf(seen + used, sizeof seen - used, " k%d=-", j);
        failf(t, cat, line, "replay",
              "%s of shared object %d shows thread %d's keys in no state they had between its "
              "changes %" PRIu64 " and %" PRIu64 ":%s%s",
              what, o, c->id, lo, hi, seen, olist ? " (with order)" : "");
    }
}

/* ---- shared objects ------------------------------------------------------------------ */

static int order_pos(const tstate *t, int o, int j) {
    for (int i = 0; i < t->norder[o]; i++)
        if (t->order[o][i] == j) return i;
    return -1;
}

static void shared_change(tstate *t, int o, int j, int del) {
    char key[32], val[MPI_MAX_INFO_VAL];
    uint64_t idx = __atomic_load_n(&t->started[o], __ATOMIC_RELAXED);
    int rc;
    skey(key, t->id, j);
    st(&t->log[o][idx % LOG_LEN], idx << 16 | (uint64_t)(del ? OP_DEL : OP_SET) << 8 | (uint64_t)j);
    st(&t->started[o], idx + 1);
    if (del) {
        rc = CALL(t, MPI_Info_delete(shared_obj[o], key));
        EXPECT(t, C_SHARED, rc == (t->present[o][j] ? MPI_SUCCESS : MPI_ERR_INFO_NOKEY),
               "delete %s: rc %d (present %d)", key, rc, t->present[o][j]);
    } else {
        make_value(key, idx, val);
        rc = CALL(t, MPI_Info_set(shared_obj[o], key, val));
        EXPECT(t, C_SHARED, rc == MPI_SUCCESS, "set %s: rc %d", key, rc);
    }
    st(&t->done[o], idx + 1);
    if (del) {
        int p = order_pos(t, o, j);
        if (p >= 0) {
            memmove(&t->order[o][p], &t->order[o][p + 1],
                    (size_t)(t->norder[o] - p - 1) * sizeof t->order[o][0]);
            t->norder[o]--;
        }
        t->present[o][j] = 0;
    } else {
        if (!t->present[o][j]) t->order[o][t->norder[o]++] = j;
        t->present[o][j] = 1;
        t->vseq[o][j] = idx;
    }
}

/* A read of one of our own keys: exactly what our model says (nobody else writes it). */
static void shared_read_own(tstate *t, MPI_Info info, int o, int j, int cat) {
    char key[32], expect[MPI_MAX_INFO_VAL], buf[MPI_MAX_INFO_VAL + 2];
    size_t len = 0;
    int flag = -7, rc, vl = -7, present = t->present[o][j];
    uint32_t choice = rnd(t, 3);
    skey(key, t->id, j);
    if (present) len = make_value(key, t->vseq[o][j], expect);
    fill_sentinel(buf, sizeof buf);
    if (choice == 0) {
        int valuelen = rnd(t, 2) ? MPI_MAX_INFO_VAL - 1 : (int)rnd(t, (uint32_t)len + 3);
        rc = CALL(t, MPI_Info_get(info, key, valuelen, buf, &flag));
        if (present) {
            size_t c = len < (size_t)valuelen ? len : (size_t)valuelen;
            EXPECT(t, cat,
                   rc == MPI_SUCCESS && flag == 1 && memcmp(buf, expect, c) == 0 && buf[c] == '\0' &&
                       untouched(buf, c + 1, sizeof buf),
                   "get own %s (valuelen %d): rc %d flag %d", key, valuelen, rc, flag);
        } else {
            EXPECT(t, cat, rc == MPI_SUCCESS && flag == 0 && untouched(buf, 0, sizeof buf),
                   "get own deleted %s: rc %d flag %d", key, rc, flag);
        }
    } else if (choice == 1) {
        rc = CALL(t, MPI_Info_get_valuelen(info, key, &vl, &flag));
        if (present)
            EXPECT(t, cat, rc == MPI_SUCCESS && flag == 1 && vl == (int)len,
                   "get_valuelen own %s: rc %d flag %d len %d, expected %d", key, rc, flag, vl,
                   (int)len);
        else
            EXPECT(t, cat, rc == MPI_SUCCESS && flag == 0 && vl == -7,
                   "get_valuelen own deleted %s: rc %d flag %d len %d", key, rc, flag, vl);
    } else {
        int in = rnd(t, 3) == 0 ? 0 : rnd(t, 2) ? MPI_MAX_INFO_VAL : (int)rnd(t, (uint32_t)len + 3);
        int buflen = in;
        char *out = (in == 0 && rnd(t, 2)) ? NULL : buf;
        rc = CALL(t, MPI_Info_get_string(info, key, &buflen, out, &flag));
        if (present) {
            size_t c = in == 0 ? 0 : (len < (size_t)in - 1 ? len : (size_t)in - 1);
            EXPECT(t, cat,
                   rc == MPI_SUCCESS && flag == 1 && buflen == (int)len + 1 &&
                       (in == 0 ? untouched(buf, 0, sizeof buf)
                                : memcmp(buf, expect, c) == 0 && buf[c] == '\0' &&
                                      untouched(buf, c + 1, sizeof buf)),
                   "get_string own %s (buflen %d): rc %d flag %d buflen %d, len %d", key, in, rc,
                   flag, buflen, (int)len);
        } else {
            EXPECT(t, cat,
                   rc == MPI_SUCCESS && flag == 0 && buflen == in && untouched(buf, 0, sizeof buf),
                   "get_string own deleted %s: rc %d flag %d", key, rc, flag);
        }
    }
}

/* A get of another thread's key, judged against that thread's log. */
static void shared_read_foreign(tstate *t, int o, int b, int j, int cat) {
    const tstate *c = T[b];
    char key[32], buf[MPI_MAX_INFO_VAL + 1];
    unsigned char covered[KPT] = {0}, pres[KPT] = {0};
    uint64_t v[KPT] = {0}, lo, hi;
    int flag = -7, rc;
    skey(key, b, j);
    lo = ld(&c->done[o]);
    rc = CALL(t, MPI_Info_get(shared_obj[o], key, MPI_MAX_INFO_VAL - 1, buf, &flag));
    hi = ld(&c->started[o]);
    EXPECT(t, cat, rc == MPI_SUCCESS && (flag == 0 || flag == 1), "get %s: rc %d flag %d", key,
           rc, flag);
    if (rc != MPI_SUCCESS || (flag != 0 && flag != 1)) return;
    covered[j] = 1;
    if (flag == 1) {
        int ok = value_seq(key, buf, &v[j]);
        EXPECT(t, cat, ok, "get %s gave a value that is not one of its values: %.80s", key, buf);
        if (!ok) return;
        pres[j] = 1;
    }
    judge(t, cat, __LINE__, c, o, lo, hi, covered, pres, v, NULL, 0, "a get");
}

/* get_nkeys, then get_nthkey and get on every position while the others delete. */
static void shared_walk(tstate *t, int o) {
    int n = -7, rc, last_own = -1;
    rc = CALL(t, MPI_Info_get_nkeys(shared_obj[o], &n));
    EXPECT(t, C_WALK, rc == MPI_SUCCESS && n >= t->norder[o] && n <= nthreads * KPT,
           "get_nkeys: rc %d n %d (own keys %d)", rc, n, t->norder[o]);
    if (rc != MPI_SUCCESS) return;
    for (int pos = 0; pos < n; pos++) {
        char key[MPI_MAX_INFO_KEY + 2];
        const char *nul;
        int b = -1, j = -1;
        fill_sentinel(key, sizeof key);
        rc = CALL(t, MPI_Info_get_nthkey(shared_obj[o], pos, key));
        if (rc == MPI_ERR_ARG) { /* the object shrank below pos meanwhile */
            EXPECT(t, C_WALK, untouched(key, 0, sizeof key), "get_nthkey(%d) = MPI_ERR_ARG wrote", pos);
            t->walk_arg++;
            break;
        }
        EXPECT(t, C_WALK, rc == MPI_SUCCESS, "get_nthkey(%d): rc %d", pos, rc);
        if (rc != MPI_SUCCESS) break;
        nul = (const char *)memchr(key, '\0', MPI_MAX_INFO_KEY);
        EXPECT(t, C_WALK, nul && untouched(key, (size_t)(nul - key) + 1, sizeof key),
               "get_nthkey(%d): no NUL, or bytes written after it", pos);
        if (!nul) break;
        if (!parse_skey(key, &b, &j)) {
            EXPECT(t, C_WALK, 0, "get_nthkey(%d) gave \"%.60s\", no thread's key", pos, key);
            break;
        }
        if (b == t->id) {
            int p = order_pos(t, o, j);
            EXPECT(t, C_WALK, p > last_own,
                   "own key %s at position %d: model position %d, after %d (absent or out of order)",
                   key, pos, p, last_own);
            if (p > last_own) last_own = p;
            shared_read_own(t, shared_obj[o], o, j, C_WALK);
        } else {
            shared_read_foreign(t, o, b, j, C_WALK);
        }
    }
    t->walks++;
}

static void priv_adopt(tstate *t, MPI_Info d, const int *gb, const int *gj, const uint64_t *gv,
                       int n);

/* A dup while the others change the object: for each thread, its keys in the dup are a
 * state they were in (values, presence, order); ours exactly as our model says. */
static void shared_dup(tstate *t, int o) {
    uint64_t lo[MAX_THREADS], hi[MAX_THREADS];
    unsigned char pres[MAX_THREADS][KPT];
    uint64_t v[MAX_THREADS][KPT];
    int olist[MAX_THREADS][KPT], gb[MAX_THREADS * KPT], gj[MAX_THREADS * KPT];
    uint64_t gv[MAX_THREADS * KPT];
    unsigned char all[KPT];
    int on[MAX_THREADS];
    MPI_Info d = (MPI_Info)0x5A5A5A5A;
    int rc, n = -7, ok = 1;
    for (int b = 0; b < nthreads; b++) lo[b] = ld(&T[b]->done[o]);
    note_create();
    rc = CALL(t, MPI_Info_dup(shared_obj[o], &d));
    for (int b = 0; b < nthreads; b++) hi[b] = ld(&T[b]->started[o]);
    EXPECT(t, C_DUP, rc == MPI_SUCCESS && d != shared_obj[o], "dup: rc %d", rc);
    if (rc != MPI_SUCCESS) return;
    rc = CALL(t, MPI_Info_get_nkeys(d, &n));
    EXPECT(t, C_DUP, rc == MPI_SUCCESS && n >= 0 && n <= nthreads * KPT, "dup's nkeys: rc %d n %d", rc, n);
    if (rc != MPI_SUCCESS || n < 0 || n > nthreads * KPT) ok = 0;
    memset(pres, 0, sizeof pres);
    memset(on, 0, sizeof on);
    memset(all, 1, sizeof all);
    /* The dup is ours alone: every position is there, every key appears once, well formed. */
    for (int pos = 0; ok && pos < n; pos++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
        int b = -1, j = -1, flag = -7;
        rc = CALL(t, MPI_Info_get_nthkey(d, pos, key));
        EXPECT(t, C_DUP, rc == MPI_SUCCESS, "dup's get_nthkey(%d) of %d: rc %d", pos, n, rc);
        if (rc != MPI_SUCCESS) { ok = 0; break; }
        if (!parse_skey(key, &b, &j) || pres[b][j]) {
            EXPECT(t, C_DUP, 0, "dup's key %d is \"%.60s\": no thread's key, or twice", pos, key);
            ok = 0;
            break;
        }
        rc = CALL(t, MPI_Info_get(d, key, MPI_MAX_INFO_VAL - 1, val, &flag));
        EXPECT(t, C_DUP, rc == MPI_SUCCESS && flag == 1, "dup's get %s: rc %d flag %d", key, rc, flag);
        if (rc != MPI_SUCCESS || flag != 1) { ok = 0; break; }
        if (!value_seq(key, val, &v[b][j])) {
            EXPECT(t, C_DUP, 0, "dup's %s is not one of its values: %.80s", key, val);
            ok = 0;
            break;
        }
        pres[b][j] = 1;
        olist[b][on[b]++] = j;
        gb[pos] = b, gj[pos] = j, gv[pos] = v[b][j];
    }
    if (ok) {
        for (int b = 0; b < nthreads; b++)
            judge(t, C_DUP, __LINE__, T[b], o, lo[b], hi[b], all, pres[b], v[b], olist[b], on[b], "a dup");
        /* our own keys: no replay needed */
        {
            int same = on[t->id] == t->norder[o];
            for (int i = 0; same && i < on[t->id]; i++) {
                int j = olist[t->id][i];
                same = j == t->order[o][i] && v[t->id][j] == t->vseq[o][j];
            }
            EXPECT(t, C_DUP, same, "own keys in a dup of shared object %d differ from the model", o);
        }
        t->dups_checked++;
    }
    if (ok && rnd(t, 4) == 0) {
        priv_adopt(t, d, gb, gj, gv, n);
    } else {
        uint64_t c = ld(&creations);
        rc = CALL(t, MPI_Info_free(&d));
        EXPECT(t, C_DUP, rc == MPI_SUCCESS && d == MPI_INFO_NULL, "free of a dup: rc %d", rc);
        if (rc == MPI_SUCCESS) grave_push(d, c);
    }
}

/* ---- private objects ----------------------------------------------------------------- */

static void pool_key(int i, char *out) {
    if (i < POOL) snprintf(out, MPI_MAX_INFO_KEY, "p%d", i);
    else if (i == POOL) strcpy(out, long_key); /* 255 characters */
    else if (i == POOL + 1) strcpy(out, "  spaced  key ");
    else strcpy(out, "\xc3\xa9t\xc3\xa9 \xff\x01");
}

/* A random value of any length 0..1023, any bytes but NUL; len >= 0 forces the length. */
static size_t rand_value(tstate *t, char *out, int len) {
    size_t n;
    uint32_t r = rnd(t, 100);
    if (len >= 0) n = (size_t)len;
    else n = r < 50 ? rnd(t, 17) : r < 90 ? rnd(t, 201) : r < 96 ? rnd(t, 1024) : 1023;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t x = rnd64(t);
        for (size_t k = i; k < n && k < i + 8; k++, x >>= 8) out[k] = (char)((x & 0xFF) ? (x & 0xFF) : 'z');
    }
    out[n] = '\0';
    return n;
}

static void model_reset(tstate *t, model *m) {
    (void)t;
    model_init(m, nthreads * KPT + NPOOL + 4);
}

/* 1 if h holds exactly the model's pairs in the model's order; else 0 and why. */
static int priv_same(tstate *t, MPI_Info h, const model *m, char *why, size_t cap) {
    int n = -7, rc;
    rc = CALL(t, MPI_Info_get_nkeys(h, &n));
    if (rc != MPI_SUCCESS || n != m->n) {
        snprintf(why, cap, "nkeys: rc %d, %d, model %d", rc, n, m->n);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
        int flag = -7, vl = -7;
        rc = CALL(t, MPI_Info_get_nthkey(h, i, key));
        if (rc != MPI_SUCCESS || strcmp(key, m->k[i]) != 0) {
            snprintf(why, cap, "key %d: rc %d, \"%.40s\", model \"%.40s\"", i, rc,
                     rc == MPI_SUCCESS ? key : "", m->k[i]);
            return 0;
        }
        rc = CALL(t, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, val, &flag));
        if (rc != MPI_SUCCESS || flag != 1 || strcmp(val, m->v[i]) != 0) {
            snprintf(why, cap, "value of key %d (\"%.40s\"): rc %d flag %d", i, key, rc, flag);
            return 0;
        }
        rc = CALL(t, MPI_Info_get_valuelen(h, key, &vl, &flag));
        if (rc != MPI_SUCCESS || flag != 1 || vl != (int)strlen(m->v[i])) {
            snprintf(why, cap, "valuelen of key %d: rc %d flag %d len %d", i, rc, flag, vl);
            return 0;
        }
    }
    return 1;
}

/* Free a private object (p's handle) and check the handle is dead. */
static void priv_free(tstate *t, MPI_Info *h) {
    MPI_Info old = *h;
    char buf[8];
    int flag = -7, rc;
    uint64_t c = ld(&creations);
    rc = CALL(t, MPI_Info_free(h));
    EXPECT(t, C_PRIV, rc == MPI_SUCCESS && *h == MPI_INFO_NULL, "free: rc %d", rc);
    rc = CALL(t, MPI_Info_get(old, "p1", 7, buf, &flag));
    if (within_window(c))
        EXPECT(t, C_STALE, rc == MPI_ERR_INFO && flag == -7, "get on a handle just freed: rc %d", rc);
    grave_push(old, c);
}

/* A dup of a shared object becomes private object p (the old one is freed). */
static void priv_adopt(tstate *t, MPI_Info d, const int *gb, const int *gj, const uint64_t *gv,
                       int n) {
    int p = (int)rnd(t, NPRIV);
    char why[200];
    priv_free(t, &t->priv[p]);
    model_free(&t->pm[p]);
    model_reset(t, &t->pm[p]);
    for (int i = 0; i < n; i++) {
        char key[32], val[MPI_MAX_INFO_VAL];
        skey(key, gb[i], gj[i]);
        make_value(key, gv[i], val);
        model_set(&t->pm[p], key, val);
    }
    t->priv[p] = d;
    t->adopted++;
    EXPECT(t, C_PRIV, priv_same(t, d, &t->pm[p], why, sizeof why), "adopted dup: %s", why);
}

static void priv_op(tstate *t) {
    int p = (int)rnd(t, NPRIV), rc, flag = -7;
    MPI_Info h = t->priv[p];
    model *m = &t->pm[p];
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 2], why[200];
    uint32_t r = rnd(t, 100);
    int idx = -1;
    /* a key: half the time one the object has, else one from the pool */
    if (m->n > 0 && rnd(t, 2)) {
        idx = (int)rnd(t, (uint32_t)m->n);
        strcpy(key, m->k[idx]);
    } else {
        pool_key((int)rnd(t, NPOOL), key);
        idx = model_find(m, key);
    }
    fill_sentinel(val, sizeof val);
    if (r < 30) { /* set: new key, replace, or replace with a value of the same length */
        int len = (idx >= 0 && rnd(t, 3) == 0) ? (int)strlen(m->v[idx]) : -1;
        rand_value(t, val, len);
        rc = CALL(t, MPI_Info_set(h, key, val));
        EXPECT(t, C_PRIV, rc == MPI_SUCCESS, "set: rc %d", rc);
        if (rc == MPI_SUCCESS) model_set(m, key, val);
    } else if (r < 45) {
        rc = CALL(t, MPI_Info_delete(h, key));
        EXPECT(t, C_PRIV, rc == (idx >= 0 ? MPI_SUCCESS : MPI_ERR_INFO_NOKEY), "delete: rc %d (in model %d)",
               rc, idx >= 0);
        model_delete(m, key);
    } else if (r < 58) { /* get, maybe truncated */
        size_t len = idx >= 0 ? strlen(m->v[idx]) : 0;
        int valuelen = rnd(t, 2) ? MPI_MAX_INFO_VAL - 1 : (int)rnd(t, (uint32_t)len + 3);
        rc = CALL(t, MPI_Info_get(h, key, valuelen, val, &flag));
        if (idx >= 0) {
            size_t c = len < (size_t)valuelen ? len : (size_t)valuelen;
            EXPECT(t, C_PRIV,
                   rc == MPI_SUCCESS && flag == 1 && memcmp(val, m->v[idx], c) == 0 && val[c] == '\0' &&
                       untouched(val, c + 1, sizeof val),
                   "get (valuelen %d, len %d): rc %d flag %d", valuelen, (int)len, rc, flag);
        } else {
            EXPECT(t, C_PRIV, rc == MPI_SUCCESS && flag == 0 && untouched(val, 0, sizeof val),
                   "get of a missing key: rc %d flag %d", rc, flag);
        }
    } else if (r < 63) {
        int vl = -7;
        rc = CALL(t, MPI_Info_get_valuelen(h, key, &vl, &flag));
        EXPECT(t, C_PRIV,
               rc == MPI_SUCCESS && (idx >= 0 ? flag == 1 && vl == (int)strlen(m->v[idx]) : flag == 0 && vl == -7),
               "get_valuelen: rc %d flag %d len %d", rc, flag, vl);
    } else if (r < 70) {
        size_t len = idx >= 0 ? strlen(m->v[idx]) : 0;
        int in = rnd(t, 4) == 0 ? 0 : rnd(t, 2) ? MPI_MAX_INFO_VAL : (int)rnd(t, (uint32_t)len + 3);
        int buflen = in;
        rc = CALL(t, MPI_Info_get_string(h, key, &buflen, (in == 0 && rnd(t, 2)) ? NULL : val, &flag));
        if (idx >= 0) {
            size_t c = in == 0 ? 0 : (len < (size_t)in - 1 ? len : (size_t)in - 1);
            EXPECT(t, C_PRIV,
                   rc == MPI_SUCCESS && flag == 1 && buflen == (int)len + 1 &&
                       (in == 0 ? untouched(val, 0, sizeof val)
                                : memcmp(val, m->v[idx], c) == 0 && val[c] == '\0' &&
                                      untouched(val, c + 1, sizeof val)),
                   "get_string (buflen %d, len %d): rc %d flag %d buflen %d", in, (int)len, rc, flag,
                   buflen);
        } else {
            EXPECT(t, C_PRIV, rc == MPI_SUCCESS && flag == 0 && buflen == in && untouched(val, 0, sizeof val),
                   "get_string of a missing key: rc %d flag %d", rc, flag);
        }
    } else if (r < 76) { /* get_nthkey, in range and just outside it */
        int n = (int)rnd(t, (uint32_t)m->n + 3) - 1;
        char k2[MPI_MAX_INFO_KEY + 2];
        fill_sentinel(k2, sizeof k2);
        rc = CALL(t, MPI_Info_get_nthkey(h, n, k2));
        if (n >= 0 && n < m->n) {
            size_t kl = strlen(m->k[n]);
            EXPECT(t, C_PRIV, rc == MPI_SUCCESS && memcmp(k2, m->k[n], kl + 1) == 0 && untouched(k2, kl + 1, sizeof k2),
                   "get_nthkey(%d): rc %d", n, rc);
        } else {
            EXPECT(t, C_PRIV, rc == MPI_ERR_ARG && untouched(k2, 0, sizeof k2),
                   "get_nthkey(%d) of %d keys: rc %d", n, m->n, rc);
        }
    } else if (r < 79) {
        int n = -7;
        rc = CALL(t, MPI_Info_get_nkeys(h, &n));
        EXPECT(t, C_PRIV, rc == MPI_SUCCESS && n == m->n, "get_nkeys: rc %d n %d, model %d", rc, n, m->n);
    } else if (r < 84) { /* bad arguments: the class, and (checked later) no change */
        int n = -7, which = (int)rnd(t, 7), expect;
        switch (which) {
        case 0: rc = CALL(t, MPI_Info_set(h, "", "x")); expect = MPI_ERR_INFO_KEY; break;
        case 1: rc = CALL(t, MPI_Info_set(h, key256, "x")); expect = MPI_ERR_INFO_KEY; break;
        case 2: rc = CALL(t, MPI_Info_set(h, key, val1024)); expect = MPI_ERR_INFO_VALUE; break;
        case 3: rc = CALL(t, MPI_Info_delete(h, key256)); expect = MPI_ERR_INFO_KEY; break;
        case 4: rc = CALL(t, MPI_Info_get(h, key, -1, val, &flag)); expect = MPI_ERR_ARG; break;
        case 5: n = -1; rc = CALL(t, MPI_Info_get_string(h, key, &n, val, &flag)); expect = MPI_ERR_ARG; break;
        default: rc = CALL(t, MPI_Info_get_nthkey(h, -1, val)); expect = MPI_ERR_ARG; break;
        }
        EXPECT(t, C_PRIV, rc == expect && flag == -7 && untouched(val, 0, sizeof val),
               "bad argument case %d: rc %d, expected %d", which, rc, expect);
    } else if (r < 89) { /* dup: the same pairs; sometimes it takes the original's place */
        MPI_Info d = (MPI_Info)0x5A5A5A5A;
        note_create();
        rc = CALL(t, MPI_Info_dup(h, &d));
        EXPECT(t, C_PRIV, rc == MPI_SUCCESS && d != h, "dup: rc %d", rc);
        if (rc != MPI_SUCCESS) return;
        EXPECT(t, C_PRIV, priv_same(t, d, m, why, sizeof why), "dup: %s", why);
        if (rnd(t, 2)) {
            priv_free(t, &d);
        } else {
            priv_free(t, &t->priv[p]);
            t->priv[p] = d;
        }
    } else if (r < 92) { /* free and create again */
        priv_free(t, &t->priv[p]);
        note_create();
        rc = CALL(t, MPI_Info_create(&t->priv[p]));
        EXPECT(t, C_PRIV, rc == MPI_SUCCESS, "create: rc %d", rc);
        model_free(m);
        model_reset(t, m);
    } else {
        EXPECT(t, C_PRIV, priv_same(t, h, m, why, sizeof why), "private object %d: %s", p, why);
    }
}

/* ---- published objects: free racing with use ----------------------------------------- */

/* 1 if h (a dup of a published object, ours alone) is well formed: "id" = serial, every other
 * key a thread's key with one of that key's values, each key once. */
static int pub_contents_ok(tstate *t, MPI_Info h, uint64_t serial, char *why, size_t cap) {
    unsigned char seen[MAX_THREADS][KPT];
    char idtext[32], key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    int n = -7, rc, ids = 0;
    snprintf(idtext, sizeof idtext, "%" PRIu64, serial);
    memset(seen, 0, sizeof seen);
    rc = CALL(t, MPI_Info_get_nkeys(h, &n));
    if (rc != MPI_SUCCESS || n < 1 || n > 1 + nthreads * KPT) {
        snprintf(why, cap, "nkeys: rc %d n %d", rc, n);
        return 0;
    }
    for (int pos = 0; pos < n; pos++) {
        int b, j, flag = -7;
        uint64_t s;
        rc = CALL(t, MPI_Info_get_nthkey(h, pos, key));
        if (rc == MPI_SUCCESS) rc = CALL(t, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, val, &flag));
        if (rc != MPI_SUCCESS || flag != 1) {
            snprintf(why, cap, "pair %d of %d: rc %d flag %d", pos, n, rc, flag);
            return 0;
        }
        if (strcmp(key, "id") == 0) {
            if (strcmp(val, idtext) != 0 || ids++) {
                snprintf(why, cap, "id \"%.40s\", expected %s (or a second id)", val, idtext);
                return 0;
            }
        } else if (!parse_skey(key, &b, &j) || seen[b][j]++ || !value_seq(key, val, &s) || s == 0 ||
                   s > ld(&T[b]->pub_started)) {
            snprintf(why, cap, "pair %d \"%.40s\" = \"%.60s\" is no pair a thread wrote (or twice)", pos,
                     key, val);
            return 0;
        }
    }
    if (!ids) snprintf(why, cap, "no id");
    return ids == 1;
}

/* Read a slot and make one call with what it held, which another thread may be freeing. */
static void pub_use(tstate *t) {
    int s = (int)rnd(t, NPUB), rc, flag = -7, n = -7, alive, judged;
    uint64_t c0 = ld(&creations), w = ld(&pub[s]), serial = w >> 32;
    MPI_Info h = (MPI_Info)(uint32_t)w, d = (MPI_Info)0x5A5A5A5A;
    char key[MPI_MAX_INFO_KEY + 2], val[MPI_MAX_INFO_VAL + 2], idtext[32], why[200] = "";
    int j = (int)rnd(t, KPT), op = (int)rnd(t, 9), ok = 1;
    uint64_t seq = 0;
    snprintf(idtext, sizeof idtext, "%" PRIu64, serial);
    skey(key, t->id, j);
    fill_sentinel(val, sizeof val);
    switch (op) {
    case 0: /* the id says which object the handle reached */
        rc = CALL(t, MPI_Info_get(h, "id", MPI_MAX_INFO_VAL - 1, val, &flag));
        if (rc == MPI_SUCCESS) ok = flag == 1 && strcmp(val, idtext) == 0;
        break;
    case 1: /* set: our own key */
        seq = ld(&t->pub_started) + 1;
        st(&t->pub_started, seq);
        make_value(key, seq, val);
        rc = CALL(t, MPI_Info_set(h, key, val));
        break;
    case 2:
        rc = CALL(t, MPI_Info_delete(h, key));
        if (rc == MPI_ERR_INFO_NOKEY) rc = MPI_SUCCESS;
        break;
    case 3:
        rc = CALL(t, MPI_Info_get_nkeys(h, &n));
        if (rc == MPI_SUCCESS) ok = n >= 1 && n <= 1 + nthreads * KPT;
        break;
    case 4: { /* any position: a key, or MPI_ERR_ARG if the object is smaller */
        int b, jj;
        fill_sentinel(key, sizeof key);
        rc = CALL(t, MPI_Info_get_nthkey(h, (int)rnd(t, 6), key));
        if (rc == MPI_SUCCESS) ok = memchr(key, '\0', MPI_MAX_INFO_KEY) && (strcmp(key, "id") == 0 || parse_skey(key, &b, &jj));
        else if (rc == MPI_ERR_ARG) rc = MPI_SUCCESS, ok = untouched(key, 0, sizeof key);
        break;
    }
    case 5: /* dup: a copy of that object, whole */
        note_create();
        rc = CALL(t, MPI_Info_dup(h, &d));
        if (rc == MPI_SUCCESS) {
            MPI_Info copy = d;
            uint64_t c = ld(&creations);
            ok = pub_contents_ok(t, d, serial, why, sizeof why);
            EXPECT(t, C_PUB, CALL(t, MPI_Info_free(&d)) == MPI_SUCCESS, "free of a dup");
            grave_push(copy, c);
        } else {
            ok = d == (MPI_Info)0x5A5A5A5A;
        }
        break;
    case 6: { /* get one of our keys: absent or one of its values */
        rc = CALL(t, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, val, &flag));
        if (rc == MPI_SUCCESS)
            ok = flag == 0 ? untouched(val, 0, sizeof val)
                           : flag == 1 && value_seq(key, val, &seq) && seq <= ld(&t->pub_started);
        break;
    }
    case 7: {
        int buflen = 8;
        rc = CALL(t, MPI_Info_get_string(h, "id", &buflen, val, &flag));
        if (rc == MPI_SUCCESS)
            ok = flag == 1 && buflen == (int)strlen(idtext) + 1 && strncmp(val, idtext, 7) == 0;
        else
            ok = buflen == 8 && flag == -7 && untouched(val, 0, sizeof val);
        break;
    }
    default:
        rc = CALL(t, MPI_Info_get_valuelen(h, "id", &n, &flag));
        if (rc == MPI_SUCCESS) ok = flag == 1 && n == (int)strlen(idtext);
        else ok = n == -7 && flag == -7;
        break;
    }
    alive = rc == MPI_SUCCESS;
    judged = within_window(c0);
    t->stale_calls++;
    if (alive) t->stale_live++;
    else if (rc == MPI_ERR_INFO) t->stale_dead++;
    EXPECT(t, C_PUB, rc == MPI_SUCCESS || rc == MPI_ERR_INFO,
           "call %d on published object %" PRIu64 " (handle %d): rc %d", op, serial, h, rc);
    if (rc == MPI_ERR_INFO && op != 5 && op != 7 && op != 8)
        ok = flag == -7 && n == -7 && (op == 1 ? 1 : op == 4 ? untouched(key, 0, sizeof key) : untouched(val, 0, sizeof val));
    if (judged)
        EXPECT(t, C_PUB, ok, "call %d on published object %" PRIu64 " (handle %d): rc %d, wrong result or output%s%s",
               op, serial, h, rc, op == 5 && rc == MPI_SUCCESS ? ": " : "", op == 5 && rc == MPI_SUCCESS ? why : "");
    else
        t->stale_unjudged++;
}

/* Swap a slot for a new object, check the old one and free it: the others may still be
 * using its handle. */
static void pub_retire(tstate *t) {
    int s = (int)rnd(t, NPUB), rc;
    MPI_Info nh = MPI_INFO_NULL, oh, d = MPI_INFO_NULL;
    uint64_t serial = __atomic_add_fetch(&pub_serial, 1, __ATOMIC_RELAXED), old, oserial, c;
    char idtext[32], why[200];
    note_create();
    rc = CALL(t, MPI_Info_create(&nh));
    EXPECT(t, C_PUB, rc == MPI_SUCCESS, "create: rc %d", rc);
    if (rc != MPI_SUCCESS) return;
    snprintf(idtext, sizeof idtext, "%" PRIu64, serial);
    rc = CALL(t, MPI_Info_set(nh, "id", idtext));
    EXPECT(t, C_PUB, rc == MPI_SUCCESS, "set id: rc %d", rc);
    old = __atomic_exchange_n(&pub[s], serial << 32 | (uint32_t)nh, __ATOMIC_ACQ_REL);
    oh = (MPI_Info)(uint32_t)old;
    oserial = old >> 32;
    /* Only we free it, so it is alive until we do; others may be writing to it. */
    note_create();
    rc = CALL(t, MPI_Info_dup(oh, &d));
    EXPECT(t, C_PUB, rc == MPI_SUCCESS, "dup of the retired object: rc %d", rc);
    if (rc == MPI_SUCCESS) {
        EXPECT(t, C_PUB, pub_contents_ok(t, d, oserial, why, sizeof why),
               "retired object %" PRIu64 ": %s", oserial, why);
        c = ld(&creations);
        EXPECT(t, C_PUB, CALL(t, MPI_Info_free(&d)) == MPI_SUCCESS, "free of a dup");
        grave_push(d, c);
    }
    if (rnd(t, 2)) sched_yield(); /* let the others at it */
    c = ld(&creations);
    {
        MPI_Info h = oh;
        char buf[8];
        int flag = -7;
        rc = CALL(t, MPI_Info_free(&h));
        EXPECT(t, C_PUB, rc == MPI_SUCCESS && h == MPI_INFO_NULL, "free of the retired object: rc %d", rc);
        rc = CALL(t, MPI_Info_get(oh, "id", 7, buf, &flag));
        if (within_window(c))
            EXPECT(t, C_STALE, rc == MPI_ERR_INFO && flag == -7, "get on a handle just freed: rc %d", rc);
    }
    grave_push(oh, c);
    t->retired++;
}

/* ---- stale handles ------------------------------------------------------------------- */

static void grave_use(tstate *t) {
    uint64_t e = ld(&grave[rnd(t, GRAVE)]);
    MPI_Info h = (MPI_Info)(uint32_t)e, h2 = h, d = (MPI_Info)0x5A5A5A5A;
    uint32_t freed_at = (uint32_t)(e >> 32);
    char buf[MPI_MAX_INFO_VAL + 2];
    int rc, flag = -7, n = -7, op = (int)rnd(t, 9), ok;
    if (e == 0) return;
    fill_sentinel(buf, sizeof buf);
    switch (op) {
    case 0: rc = CALL(t, MPI_Info_get(h, "id", MPI_MAX_INFO_VAL - 1, buf, &flag)); break;
    case 1: rc = CALL(t, MPI_Info_set(h, "t0_k0", "stale")); break;
    case 2: rc = CALL(t, MPI_Info_delete(h, "id")); break;
    case 3: rc = CALL(t, MPI_Info_free(&h2)); break;
    case 4: note_create(); rc = CALL(t, MPI_Info_dup(h, &d)); break;
    case 5: rc = CALL(t, MPI_Info_get_nkeys(h, &n)); break;
    case 6: rc = CALL(t, MPI_Info_get_nthkey(h, 0, buf)); break;
    case 7: rc = CALL(t, MPI_Info_get_valuelen(h, "id", &n, &flag)); break;
    default: n = 8; rc = CALL(t, MPI_Info_get_string(h, "id", &n, buf, &flag)); if (n == 8) n = -7; break;
    }
    /* creations since the free: counted from the count read before it, up to now */
    if ((uint32_t)((uint32_t)ld(&creations) - freed_at) >= REUSE_WINDOW - WINDOW_MARGIN) {
        t->stale_unjudged++;
        if (rc == MPI_SUCCESS && op == 4) CALL(t, MPI_Info_free(&d));
        return;
    }
    ok = rc == MPI_ERR_INFO && flag == -7 && n == -7 && h2 == h && d == (MPI_Info)0x5A5A5A5A &&
         untouched(buf, 0, sizeof buf);
    EXPECT(t, C_STALE, ok, "call %d on freed handle %d: rc %d (outputs %s)", op, h, rc,
           rc == MPI_ERR_INFO ? "written" : "-");
    if (rc == MPI_SUCCESS && op == 4) CALL(t, MPI_Info_free(&d));
    t->stale_calls++;
    t->stale_dead += rc == MPI_ERR_INFO;
}

/* ---- MPI_INFO_ENV --------------------------------------------------------------------- */

static void env_op(tstate *t) {
    int rc, n = -7, flag = -7, op = (int)rnd(t, 6);
    char buf[MPI_MAX_INFO_VAL + 1];
    MPI_Info e = MPI_INFO_ENV, d = MPI_INFO_NULL;
    size_t len;
    char *now_dump;
    switch (op) {
    case 0:
        rc = CALL(t, MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
        EXPECT(t, C_ENV, rc == MPI_SUCCESS && n == env_n0, "nkeys: rc %d n %d, was %d", rc, n, env_n0);
        break;
    case 1:
        rc = CALL(t, MPI_Info_get(MPI_INFO_ENV, "thread_level", MPI_MAX_INFO_VAL - 1, buf, &flag));
        EXPECT(t, C_ENV, rc == MPI_SUCCESS && flag == 1 && strcmp(buf, "MPI_THREAD_MULTIPLE") == 0,
               "get thread_level: rc %d flag %d", rc, flag);
        break;
    case 2:
        note_create();
        rc = CALL(t, MPI_Info_dup(MPI_INFO_ENV, &d));
        EXPECT(t, C_ENV, rc == MPI_SUCCESS, "dup: rc %d", rc);
        if (rc != MPI_SUCCESS) break;
        t->ops += (uint64_t)(3 * env_n0 + 1);
        now_dump = dump(d, &len);
        EXPECT(t, C_ENV, same_dump(now_dump, len, env_snap, env_len), "dup differs from the snapshot");
        free(now_dump);
        EXPECT(t, C_ENV, CALL(t, MPI_Info_set(d, "thread_level", "x")) == MPI_SUCCESS, "set in a dup");
        EXPECT(t, C_ENV, CALL(t, MPI_Info_free(&d)) == MPI_SUCCESS, "free of a dup");
        break;
    case 3:
        rc = CALL(t, MPI_Info_set(MPI_INFO_ENV, "thread_level", "x"));
        EXPECT(t, C_ENV, rc == MPI_ERR_INFO, "set: rc %d", rc);
        rc = CALL(t, MPI_Info_delete(MPI_INFO_ENV, "host"));
        EXPECT(t, C_ENV, rc == MPI_ERR_INFO, "delete: rc %d", rc);
        rc = CALL(t, MPI_Info_free(&e));
        EXPECT(t, C_ENV, rc == MPI_ERR_INFO && e == MPI_INFO_ENV, "free: rc %d", rc);
        break;
    case 4:
        note_create();
        rc = CALL(t, MPI_Info_create_env(g_argc, g_argv, &d));
        EXPECT(t, C_ENV, rc == MPI_SUCCESS, "create_env: rc %d", rc);
        if (rc != MPI_SUCCESS) break;
        now_dump = dump(d, &len);
        EXPECT(t, C_ENV, same_dump(now_dump, len, cenv_snap, cenv_len), "create_env differs from the first");
        free(now_dump);
        EXPECT(t, C_ENV, CALL(t, MPI_Info_free(&d)) == MPI_SUCCESS, "free of create_env's object");
        break;
    default:
        t->ops += (uint64_t)(3 * env_n0 + 1);
        now_dump = dump(MPI_INFO_ENV, &len);
        EXPECT(t, C_ENV, same_dump(now_dump, len, env_snap, env_len), "MPI_INFO_ENV changed");
        free(now_dump);
        break;
    }
}

/* ---- the threads ---------------------------------------------------------------------- */

static void *worker(void *arg) {
    tstate *t = (tstate *)arg;
    for (int p = 0; p < NPRIV; p++) {
        note_create();
        EXPECT(t, C_PRIV, CALL(t, MPI_Info_create(&t->priv[p])) == MPI_SUCCESS, "create");
        model_reset(t, &t->pm[p]);
    }
    pthread_barrier_wait(&barrier);
    for (unsigned long it = 0;; it++) {
        uint32_t r;
        int o;
        if ((it & 15) == 0 && now() >= deadline) break;
        r = rnd(t, 1000);
        o = (int)rnd(t, NSHARED);
        if (r < 280) shared_change(t, o, (int)rnd(t, KPT), rnd(t, 10) < 4);
        else if (r < 340) shared_read_own(t, shared_obj[o], o, (int)rnd(t, KPT), C_SHARED);
        else if (r < 400) shared_read_foreign(t, o, (int)rnd(t, (uint32_t)nthreads), (int)rnd(t, KPT), C_SHARED);
        else if (r < 412) shared_walk(t, o);
        else if (r < 430) shared_dup(t, o);
        else if (r < 640) priv_op(t);
        else if (r < 820) pub_use(t);
        else if (r < 832) pub_retire(t);
        else if (r < 900) grave_use(t);
        else if (r < 915) env_op(t);
        else shared_change(t, o, (int)rnd(t, KPT), 0);
    }
    return NULL;
}

static void watchdog(int sig) {
    static const char msg[] = "stress: watchdog: the run did not finish in time (deadlock?)\n";
    (void)sig;
    if (write(2, msg, sizeof msg - 1) < 0) _exit(3);
    _exit(3);
}

/* ---- after the join ------------------------------------------------------------------- */

static void final_shared(int o) {
    static unsigned char pres[MAX_THREADS][KPT];
    static uint64_t v[MAX_THREADS][KPT];
    static int olist[MAX_THREADS][KPT];
    int on[MAX_THREADS], n = -7, expect = 0, wellformed = 1;
    unsigned char all[KPT];
    memset(pres, 0, sizeof pres);
    memset(on, 0, sizeof on);
    memset(all, 1, sizeof all);
    for (int b = 0; b < nthreads; b++) expect += T[b]->norder[o];
    CHECK_RC(MPI_Info_get_nkeys(shared_obj[o], &n), MPI_SUCCESS);
    CHECK(n == expect);
    for (int pos = 0; pos < n; pos++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
        int b, j, flag = -7;
        if (MPI_Info_get_nthkey(shared_obj[o], pos, key) != MPI_SUCCESS || !parse_skey(key, &b, &j) ||
            pres[b][j] || MPI_Info_get(shared_obj[o], key, MPI_MAX_INFO_VAL - 1, val, &flag) != MPI_SUCCESS ||
            flag != 1 || !value_seq(key, val, &v[b][j])) {
            fprintf(stderr, "  shared object %d: pair %d is wrong\n", o, pos);
            wellformed = 0;
            break;
        }
        pres[b][j] = 1;
        olist[b][on[b]++] = j;
    }
    CHECK(wellformed);
    for (int b = 0; b < nthreads; b++) {
        const tstate *t = T[b];
        int same = on[b] == t->norder[o];
        for (int i = 0; same && i < on[b]; i++) {
            int j = olist[b][i];
            same = j == t->order[o][i] && t->present[o][j] && v[b][j] == t->vseq[o][j];
        }
        CHECK(same);
        if (!same) fprintf(stderr, "  shared object %d: thread %d's keys differ from its model\n", o, b);
        /* the log replay agrees with the model on the final state */
        CHECK(check_view(t, o, t->started[o], t->started[o], all, pres[b], v[b], olist[b], on[b]) == 1);
    }
    CHECK_RC(MPI_Info_free(&shared_obj[o]), MPI_SUCCESS);
}

int main(int argc, char **argv) {
    const char *e;
    double seconds, t0, elapsed;
    uint64_t seed, ops = 0, verified = 0, inconclusive = 0, dups = 0, walks = 0, walk_arg = 0,
                   stale = 0, live = 0, dead = 0, unjudged = 0, retired = 0, adopted = 0;
    pthread_t th[MAX_THREADS];
    int under_valgrind = getenv("MPI_INFO_UNDER_VALGRIND") != NULL;

    check_start(argv[0]);
    g_argc = argc;
    g_argv = argv;
    e = getenv("STRESS_SECONDS");
    seconds = e && *e ? atof(e) : under_valgrind ? 1.0 : 3.0;
    if (seconds < 0) seconds = 0;
    e = getenv("STRESS_THREADS");
    nthreads = e && *e ? atoi(e) : 8;
    if (nthreads < 1) nthreads = 1;
    if (nthreads > MAX_THREADS) nthreads = MAX_THREADS;
    e = getenv("STRESS_SEED");
    seed = e && *e ? strtoull(e, NULL, 0) : mix64((uint64_t)time(NULL) ^ (uint64_t)getpid() << 32);
    printf("stress: seed %#" PRIx64 " (STRESS_SEED=%#" PRIx64 " repeats each thread's choices), "
           "%d threads, %.1f s\n", seed, seed, nthreads, seconds);
    fflush(stdout);
    signal(SIGALRM, watchdog);
    alarm((unsigned)(seconds * 3) + (under_valgrind ? 600 : 120));

    memset(key256, 'K', MPI_MAX_INFO_KEY);
    memset(val1024, 'V', MPI_MAX_INFO_VAL);
    memset(long_key, 'L', MPI_MAX_INFO_KEY - 1);
    long_key[MPI_MAX_INFO_KEY - 2] = '!';

    /* snapshots of MPI_INFO_ENV and of create_env's object */
    CHECK_RC(MPI_Info_get_nkeys(MPI_INFO_ENV, &env_n0), MPI_SUCCESS);
    env_snap = dump(MPI_INFO_ENV, &env_len);
    {
        MPI_Info ce = MPI_INFO_NULL;
        note_create();
        CHECK_RC(MPI_Info_create_env(argc, argv, &ce), MPI_SUCCESS);
        cenv_snap = dump(ce, &cenv_len);
        CHECK_RC(MPI_Info_free(&ce), MPI_SUCCESS);
    }

    for (int o = 0; o < NSHARED; o++) {
        note_create();
        CHECK_RC(MPI_Info_create(&shared_obj[o]), MPI_SUCCESS);
    }
    for (int s = 0; s < NPUB; s++) {
        MPI_Info h = MPI_INFO_NULL;
        char idtext[32];
        uint64_t serial = ++pub_serial;
        snprintf(idtext, sizeof idtext, "%" PRIu64, serial);
        note_create();
        CHECK_RC(MPI_Info_create(&h), MPI_SUCCESS);
        CHECK_RC(MPI_Info_set(h, "id", idtext), MPI_SUCCESS);
        pub[s] = serial << 32 | (uint32_t)h;
    }
    for (int i = 0; i < nthreads; i++) {
        T[i] = (tstate *)calloc(1, sizeof(tstate));
        if (!T[i]) exit(2);
        T[i]->id = i;
        T[i]->rng = mix64(seed + 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1));
    }
    if (pthread_barrier_init(&barrier, NULL, (unsigned)nthreads + 1) != 0) exit(2);
    for (int i = 0; i < nthreads; i++)
        if (pthread_create(&th[i], NULL, worker, T[i]) != 0) {
            perror("pthread_create");
            exit(2);
        }
    t0 = now();
    deadline = t0 + seconds;
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < nthreads; i++) pthread_join(th[i], NULL);
    elapsed = now() - t0;
    pthread_barrier_destroy(&barrier);

    /* each thread's record: one check per (thread, category) */
    for (int i = 0; i < nthreads; i++) {
        tstate *t = T[i];
        for (int c = 0; c < NCAT; c++) {
            CHECK(t->failures[c] == 0);
            if (t->failures[c])
                fprintf(stderr, "  thread %d, %s: %d failures; first at %s %s\n", i, cat_name[c],
                        t->failures[c], __FILE__, t->first[c]);
        }
        ops += t->ops, verified += t->verified, inconclusive += t->inconclusive;
        dups += t->dups_checked, walks += t->walks, walk_arg += t->walk_arg;
        stale += t->stale_calls, live += t->stale_live, dead += t->stale_dead;
        unjudged += t->stale_unjudged, retired += t->retired, adopted += t->adopted;
    }

    /* the shared objects: exactly the union of what each thread knows it wrote */
    for (int o = 0; o < NSHARED; o++) final_shared(o);

    /* private objects: their models */
    for (int i = 0; i < nthreads; i++) {
        tstate *t = T[i];
        for (int p = 0; p < NPRIV; p++) {
            char why[200];
            int same = priv_same(t, t->priv[p], &t->pm[p], why, sizeof why);
            CHECK(same);
            if (!same) fprintf(stderr, "  thread %d, private object %d: %s\n", i, p, why);
            CHECK_RC(MPI_Info_free(&t->priv[p]), MPI_SUCCESS);
            model_free(&t->pm[p]);
        }
    }

    /* published objects: well formed */
    for (int s = 0; s < NPUB; s++) {
        MPI_Info h = (MPI_Info)(uint32_t)pub[s];
        char why[200];
        int okp = pub_contents_ok(T[0], h, pub[s] >> 32, why, sizeof why);
        CHECK(okp);
        if (!okp) fprintf(stderr, "  published slot %d: %s\n", s, why);
        CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
    }

    /* every remembered freed handle is dead (while the SPEC's window covers it) */
    {
        int all_dead = 1;
        for (int i = 0; i < GRAVE; i++) {
            uint64_t g = grave[i];
            int n = -7;
            if (g == 0 || (uint32_t)((uint32_t)creations - (uint32_t)(g >> 32)) >= REUSE_WINDOW - WINDOW_MARGIN)
                continue;
            if (MPI_Info_get_nkeys((MPI_Info)(uint32_t)g, &n) != MPI_ERR_INFO || n != -7) all_dead = 0;
        }
        CHECK(all_dead);
    }
    CHECK(same_as(MPI_INFO_ENV, env_snap, env_len));
    free(env_snap);
    free(cenv_snap);
    for (int i = 0; i < nthreads; i++) free(T[i]);

    printf("stress: %" PRIu64 " operations in %.2f s: %.0f ops/s (%d threads); %" PRIu64
           " verifications (%" PRIu64 " replays inconclusive), %" PRIu64 " dups of changing objects, %" PRIu64
           " walks (%" PRIu64 " cut short by deletes), %" PRIu64 " calls through published or freed handles (%" PRIu64
           " reached the object, %" PRIu64 " MPI_ERR_INFO, %" PRIu64 " not judged), %" PRIu64
           " objects freed under use, %" PRIu64 " dups adopted\n",
           ops, elapsed, elapsed > 0 ? (double)ops / elapsed : 0.0, nthreads, verified, inconclusive,
           dups, walks, walk_arg, stale, live, dead, unjudged, retired, adopted);
    return check_report();
}
