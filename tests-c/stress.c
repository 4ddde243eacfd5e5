/* stress.c - concurrency stress (docs/reference.md, "Threads", with "Handles", "Rules every
 * function follows" and "Order"): many threads doing random operations on shared and private
 * objects for a bounded time, then the final state checked against what each thread knows it
 * wrote.
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
 *    MPI_ERR_INFO with its outputs untouched. docs/reference.md, "Handles", promises that only
 *    within the 8,382,462 creations after the free, and this test judges the first 1,000,000:
 *    each create/dup/create_env is counted before it is made, and a call further out is not
 *    judged (a handle read from a published slot likewise).
 *  - MPI_INFO_ENV: nkeys, get, dup and create_env compared with snapshots taken before the
 *    threads start; set, delete and free refused.
 * At the end: each shared object holds exactly the union of the threads' models (nkeys, every
 * value, each thread's keys in its order, no other key); the private objects match their
 * models; the published objects are well formed; the freed handles are dead.
 *
 * That mix changes every object often. Real programs also use objects in two other ways,
 * which the run covers in phases of their own: objects that are read far more than they are
 * changed, and objects that one thread writes in long runs while others look in now and then.
 * So the run has four phases: the mix above for two fifths of STRESS_SECONDS, then three of a
 * fifth each. Two on NMOSTLY read-mostly objects, which one writer thread changes while others
 * read:
 *  - read-mostly: the STRESS_THREADS threads read the objects in long runs (get, get_string,
 *    get_valuelen, get_nkeys, get_nthkey, now and then dup), while the writer, after every
 *    hundred to two thousand reads, makes 1 to 24 changes: it changes a key's value
 *    (mostly in place: the same length), deletes or re-adds keys (the count swings across
 *    the library's 8-pair index threshold), and now and then replaces an object: it dups it
 *    or creates and fills a new one, publishes the new handle in the object's slot (as for
 *    published objects above), frees the old one, and checks it dead. Values are 200-1023
 *    bytes, the unit "b<j>=<version>:<12 letters>;" repeated, so a value copied while the
 *    writer overwrote it is seen wherever the two versions meet. Every read is judged against
 *    the writer's log (as for shared objects): it must show a state the object had between
 *    the writer's changes done before the read and those started before it returned. Readers
 *    keep a handle for a run of reads, so some reads use one the writer has replaced: those
 *    show its last state or give MPI_ERR_INFO, and once its free has returned, MPI_ERR_INFO.
 *  - churn: threads that each make a few runs of the same reads and exit, CHURN_POOL alive
 *    at once, at least CHURN_MIN over the phase: many short-lived threads, none of which may
 *    leave anything behind that a later call waits for.
 * And one on owned objects, written in bursts by one thread at a time:
 *  - owned: NOWNER owners each write their OWN_OBJS objects in bursts of 300 to 2000 changes
 *    (the changes, values and logs of the read-mostly writer's, one log per object; one object
 *    at a time, or all interleaved; in one burst in six a replacement as above). Between its writes the owner reads its
 *    object back (get, get_string, get_valuelen, get_nkeys, get_nthkey), which must show its
 *    own writes exactly. Meanwhile the STRESS_THREADS threads visit the owned objects, sleeping
 *    in between (0.1 to 3 ms with 8 threads, in proportion with more or fewer) so that the
 *    owners make long runs of writes between visits: they read them (short runs of the reads above,
 *    one in ten a dup walked; get_nthkey walks), each read judged against the owner's log; and
 *    the first NX_MAX of them write their own key "x<id>" in each owned object (made first in
 *    every object, so that the owner's keys always follow them; values as for shared objects),
 *    which the owner must see (its last version that reached the object, or a later one) when
 *    it next looks, before and after each burst, and readers as one of its values.
 *    Each owner thread exits after 1 to OWN_LIFE bursts, and a new thread takes its objects
 *    over (the owner's log and model, the same handles); every other time a visitor thread is
 *    started first, which reads them while the new owner starts writing. The new thread is
 *    most often given the exited one's stack: how many were is counted, and about how many
 *    visits found an object after OWN_AFTER of its owner's writes since anyone else came. The
 *    phase lasts until OWN_MIN_HANDOFFS owner threads have exited and an object was replaced;
 *    when its time is up before that (sanitizers, valgrind), owners make short bursts, each
 *    with a replacement, and their threads exit after one.
 * Any call in the phases after the mix is timed: if one has not returned after HANG_SECONDS
 * (a lock never released, or a thread stuck inside), the program says which thread's call it
 * is and fails; a crash says in
 * which phase.
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
#define NMOSTLY 2         /* read-mostly objects; the writer keeps its log in a tstate's */
#define MOSTLY_MIN_WRITES 32 /* changes (and one replacement) each read-mostly phase makes at least */
#define CHURN_POOL 16   /* churn threads alive at once, at most */
#define CHURN_MIN 200   /* churn threads started at least */
#define HANG_SECONDS 10 /* a call (after the mix) that takes longer is taken for a hang */
#define NOWNER 2        /* owners, each written by one thread after another */
#define OWN_OBJS 2      /* objects each owner writes; their logs are the first of its tstate's */
#define NOWNED (NOWNER * OWN_OBJS)
#define NX_MAX 3        /* threads that also write the owned objects, a key "x<id>" each */
#define OWN_LIFE 6      /* bursts an owner thread makes at most before it exits */
#define VISIT_POOL 2    /* visitor threads alive at once, at most */
#define OWN_AFTER 256   /* writes in a row by one owner counted as a long run */
#define PACE_THREADS 8 /* readers of owned objects pause 0.1-3 ms times their number / this */
#define OWN_MIN_HANDOFFS 4 /* owner threads that exit during the owned phase, at least */
typedef char nmostly_fits_the_log[NMOSTLY <= NSHARED && OWN_OBJS <= NSHARED ? 1 : -1];

enum { C_SHARED, C_WALK, C_DUP, C_PRIV, C_PUB, C_STALE, C_ENV, C_BREAD, C_BFREE, C_BWRITE, C_OREAD,
       C_OFREE, C_OFOREIGN, C_OWNER, NCAT };
static const char *const cat_name[NCAT] = {
    "shared object get/set/delete", "walk racing with deletes", "dup of a changing object",
    "private objects", "free racing with use", "stale handles", "MPI_INFO_ENV",
    "read-mostly reads racing with writes", "read-mostly reads racing with replacement",
    "read-mostly writer", "owned objects: others' reads racing with the owner",
    "owned objects: use racing with replacement", "owned objects: others' writes, seen by all",
    "owned objects: the owner's writes and reads"};
/* The categories each kind of thread's record turns into checks (tstate.cats). */
#define CATS_WORKER ((1u << C_BREAD) - 1u)
#define CATS_READER (1u << C_BREAD | 1u << C_BFREE)
#define CATS_WRITER (1u << C_BWRITE | 1u << C_BFREE)
#define CATS_OREADER (1u << C_OREAD | 1u << C_OFREE | 1u << C_OFOREIGN)
#define CATS_OWNER (1u << C_OWNER | 1u << C_OFREE | 1u << C_OFOREIGN)
#define CATS_VISITOR (1u << C_OREAD | 1u << C_OFREE)

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
    /* read-mostly objects (a reader, a churn slot or the writer) */
    unsigned cats;    /* categories this record turns into checks */
    uint64_t reads;   /* reads of read-mostly objects; the writer paces itself by their sum */
    uint64_t reads_dead, reads_unjudged, bdups, churned, writes, replaced, max_call_ns;
    uint64_t finished; /* set when the thread's function returns; main polls it */
    uint64_t call_ns, call_op; /* when its current call began (0: none), which; main polls them */
    char role[40];    /* what it is, for the hang detector's message */
    /* owned objects: an owner (own: which), a visitor (own: whose objects) or a reader */
    int own;
    uint64_t bursts, own_reads, fseen, walks_owned, fwrites, fwrites_dead, xreads, took_back, visits, ovisits;
    /* pthread_self() of the thread (an owner's current one) and of the owner thread that exited
     * last before it started; how many of its threads had the same */
    uint64_t self, heir_of, heirs;
    struct {
        uint64_t tag; /* seq + 1 of the value below, 0: none */
        size_t len;
        char v[MPI_MAX_INFO_VAL];
    } bval[KPT];      /* the last value made for each key: most reads see a recent one */
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
/* read-mostly and owned objects */
static tstate *BW;                /* the writer: its log of changes, its model, its counts */
static tstate *CT[CHURN_POOL];    /* churn slots, each used by one thread after another */
static tstate *OW[NOWNER];        /* owners, each run by one thread after another */
static tstate *VS[VISIT_POOL];    /* visitor slots */
/* Objects 0..NMOSTLY-1 are the read-mostly ones, NMOSTLY.. the owned ones (owner k's object i is
 * NMOSTLY + k * OWN_OBJS + i). */
#define NBOBJ (NMOSTLY + NOWNED)
typedef struct {
    tstate *w;       /* the writer of its keys "b<j>", whose log w->log[wo] says what they held */
    int wo;
    int nx;          /* keys "x0".."x<nx-1>" first in the object, each written by that thread */
    int cread, cfree, cwrite; /* categories of reads, of use racing with replacement, of writes */
    const char *name;
    uint64_t slot;   /* serial << 32 | handle, as pub[] */
    uint64_t freed;  /* count at the free << 32 | handle replaced, once its free returned */
    uint64_t xstarted[NX_MAX]; /* the version of "x<r>" thread r writes last (may be under way) */
    uint64_t xdone[NX_MAX];    /* serial of the object << 32 | version, of r's last set that returned */
    uint64_t wcount; /* its writer's calls that change it (owned objects: for took_back) */
    uint64_t fmark;  /* wcount when another thread last came, or the owner changed */
} bobj;
static bobj BO[NBOBJ];
static uint64_t mostly_serial, mostly_stop, own_stop;
static uint64_t own_hurry; /* the owned phase's time is up, but not all it must do is done */
static int nfw; /* threads that write their own key in the owned objects */
static tstate *pace[MAX_THREADS > CHURN_POOL ? MAX_THREADS : CHURN_POOL]; /* the readers now */
static int npace;
/* the threads whose calls main() watches for a hang in this phase */
static tstate *watched[MAX_THREADS + CHURN_POOL + NOWNER + VISIT_POOL + 1];
static int nwatched;
/* every record: the workers (later the readers), the read-mostly writer, the churn slots, the
 * owners, the visitor slots */
static tstate *ALL[MAX_THREADS + 1 + CHURN_POOL + NOWNER + VISIT_POOL];
static int nall;

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
        fprintf(stderr, "  %s, %s, %s:%d: %s [%s]\n", t->role, cat_name[cat], __FILE__, line, msg, cond);
}

/* EXPECT(t, category, condition, printf-format, ...): one verification in a thread. */
#define EXPECT(t, cat, cond, ...)                                                          \
    do {                                                                                   \
        (t)->verified++;                                                                   \
        if (!(cond)) failf((t), (cat), __LINE__, #cond, __VA_ARGS__);                     \
    } while (0)

/* Handles are packed into 64-bit words with a serial number or a count: their integer form
 * (which every handle the library gives out fits) in the low 32 bits. */
static uint32_t handle_bits(MPI_Info h) { return (uint32_t)MPI_Info_toint(h); }
static MPI_Info handle_from_bits(uint64_t word) { return MPI_Info_fromint((int)(uint32_t)word); }

static void grave_push(MPI_Info h, uint64_t count_at_free) {
    uint64_t i = __atomic_fetch_add(&grave_next, 1, __ATOMIC_RELAXED) % GRAVE;
    st(&grave[i], (count_at_free & 0xFFFFFFFFu) << 32 | handle_bits(h));
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

/* The writer's own model of object o after its change number idx: key j deleted (it moves the
 * later keys down) or set (a new key goes last). */
static void model_change(tstate *t, int o, int j, int del, uint64_t idx) {
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
    model_change(t, o, j, del, idx);
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
    MPI_Info h = handle_from_bits(w), d = (MPI_Info)0x5A5A5A5A;
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
           "call %d on published object %" PRIu64 " (handle %d): rc %d", op, serial, MPI_Info_toint(h), rc);
    if (rc == MPI_ERR_INFO && op != 5 && op != 7 && op != 8)
        ok = flag == -7 && n == -7 && (op == 1 ? 1 : op == 4 ? untouched(key, 0, sizeof key) : untouched(val, 0, sizeof val));
    if (judged)
        EXPECT(t, C_PUB, ok, "call %d on published object %" PRIu64 " (handle %d): rc %d, wrong result or output%s%s",
               op, serial, MPI_Info_toint(h), rc, op == 5 && rc == MPI_SUCCESS ? ": " : "", op == 5 && rc == MPI_SUCCESS ? why : "");
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
    old = __atomic_exchange_n(&pub[s], serial << 32 | handle_bits(nh), __ATOMIC_ACQ_REL);
    oh = handle_from_bits(old);
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
    MPI_Info h = handle_from_bits(e), h2 = h, d = (MPI_Info)0x5A5A5A5A;
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
    EXPECT(t, C_STALE, ok, "call %d on freed handle %d: rc %d (outputs %s)", op, MPI_Info_toint(h), rc,
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

/* ---- read-mostly objects: long runs of reads, a writer now and then ------------------- */

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

enum { W_SET = 1, W_DELETE, W_DUP, W_CREATE, W_FREE, W_GET, W_GET_STRING, W_VALUELEN, W_NKEYS, W_NTHKEY };
static const char *const wcall_name[] = {"", "MPI_Info_set", "MPI_Info_delete", "MPI_Info_dup",
                                         "MPI_Info_create", "MPI_Info_free", "MPI_Info_get",
                                         "MPI_Info_get_string", "MPI_Info_get_valuelen",
                                         "MPI_Info_get_nkeys", "MPI_Info_get_nthkey"};

/* Around each call after the mix, so that main() sees one that never returns (t NULL: main's
 * own calls, not watched). TIMED(t, op, call) is the call's result. */
static void call_begin(tstate *t, int op) {
    if (!t) return;
    st(&t->call_op, (uint64_t)op);
    st(&t->call_ns, now_ns());
}

static int call_end(tstate *t, int rc) {
    uint64_t took;
    if (!t) return rc;
    took = now_ns() - ld(&t->call_ns);
    st(&t->call_ns, 0);
    if (took > t->max_call_ns) st(&t->max_call_ns, took);
    return rc;
}

#define TIMED(t, op, call) (call_begin((t), (op)), call_end((t), (call)))

/* Called by main() while a phase's threads run: a call that waits this long waits for
 * something that will never come (a lock never released, or a thread stuck inside), so the
 * run would only end by the watchdog. Ends the program with a failed check instead. */
static void hang_check(void) {
    for (int i = 0; i < nwatched; i++) {
        const tstate *t = watched[i];
        uint64_t began = ld(&t->call_ns), op = ld(&t->call_op);
        if (began == 0 || now_ns() - began < (uint64_t)HANG_SECONDS * 1000000000u) continue;
        fprintf(stderr, "stress: %s's %s has not returned after %d s: it waits for something "
                "that never comes (a lock never released, or a thread stuck inside a call)\n",
                t->role, op < sizeof wcall_name / sizeof wcall_name[0] ? wcall_name[op] : "call",
                HANG_SECONDS);
        CHECK(now_ns() - began < (uint64_t)HANG_SECONDS * 1000000000u);
        fflush(stderr);
        check_report();
        fflush(stdout);
        _exit(1);
    }
}

static void watch(tstate *t) { watched[nwatched++] = t; }

static void bkey(char *out, int j) { snprintf(out, 32, "b%d", j); }

/* The length of key j's value written by change seq: mostly the key's own length, so that
 * the library overwrites the value in place (a reader copying it without the lock would mix
 * two versions); one in eight another length, so the pair is reallocated and the old freed. */
static size_t bvalue_len(int j, uint64_t seq) {
    uint64_t h = mix64((uint64_t)j << 48 ^ mix64(seq ^ 0xB1A5ull));
    if (h & 7) return 200 + (size_t)(j * 397 % 800);
    return 200 + (size_t)((h >> 8) % (MPI_MAX_INFO_VAL - 200));
}

/* Key j's value written by change seq: the unit "b<j>=<seq, 10 digits>:<12 letters>;" (the
 * letters from j and seq) repeated to bvalue_len, so every 27 or so bytes say which version
 * they belong to. */
static size_t make_bvalue(int j, uint64_t seq, char *out) {
    char unit[48];
    uint64_t h = mix64((uint64_t)j << 48 ^ seq ^ 0x5EEDull);
    size_t len = bvalue_len(j, seq), u = (size_t)snprintf(unit, 32, "b%d=%010" PRIu64 ":", j, seq);
    for (int k = 0; k < 12; k++) unit[u++] = (char)('a' + (int)((h >> (5 * k)) & 31) % 26);
    unit[u++] = ';';
    for (size_t i = 0; i < len; i++) out[i] = unit[i % u];
    out[len] = '\0';
    return len;
}

/* make_bvalue through the thread's cache of the last value made for each key. */
static const char *bvalue(tstate *t, int j, uint64_t seq, size_t *len) {
    if (t->bval[j].tag != seq + 1) {
        t->bval[j].len = make_bvalue(j, seq, t->bval[j].v);
        t->bval[j].tag = seq + 1;
    }
    *len = t->bval[j].len;
    return t->bval[j].v;
}

/* 1 (and *seq) if val, len bytes, is exactly a value of key j; else 0 and in *bad the first
 * byte that differs from the version its start names (or 0: no version named). */
static int bvalue_check(tstate *t, int j, const char *val, size_t len, uint64_t *seq, size_t *bad) {
    char pre[32];
    size_t pl = (size_t)snprintf(pre, sizeof pre, "b%d=", j), elen, i;
    uint64_t s = 0;
    const char *e;
    *bad = 0;
    if (len < pl + 11 || memcmp(val, pre, pl) != 0 || val[pl + 10] != ':') return 0;
    for (i = pl; i < pl + 10; i++) {
        if (val[i] < '0' || val[i] > '9') return 0;
        s = s * 10 + (uint64_t)(val[i] - '0');
    }
    e = bvalue(t, j, s, &elen);
    if (len == elen && memcmp(val, e, len) == 0) {
        *seq = s;
        return 1;
    }
    for (i = 0; i < len && i < elen && val[i] == e[i]; i++) {}
    *bad = i;
    return 0;
}

/* What one read of a read-mostly object saw, and what it was. */
enum { B_GET, B_VALUELEN, B_NKEYS, B_NTHKEY, B_NTHKEY_ARG, B_DUP };
typedef struct {
    int op, j, n;          /* the call; key j; n: the count, position or length it saw */
    unsigned char pres[KPT];
    uint64_t seq[KPT];
    int olist[KPT], on;    /* B_DUP: the keys in the dup's order */
} bseen;

/* One state of the writer's keys: present or not, the change that wrote the value, and the
 * change that inserted the key (which orders the keys). */
typedef struct {
    unsigned char pres[KPT];
    uint64_t seq[KPT], ins[KPT];
} bstate;

static int bstate_count(const bstate *s) {
    int n = 0;
    for (int j = 0; j < KPT; j++) n += s->pres[j];
    return n;
}

/* Whether a state fits what the read saw. */
static int bstate_fits(const bstate *s, const bseen *r) {
    int j = r->j, before = 0;
    switch (r->op) {
    case B_GET: return s->pres[j] == r->pres[j] && (!r->pres[j] || s->seq[j] == r->seq[j]);
    case B_VALUELEN: return s->pres[j] == r->pres[j] && (!r->pres[j] || bvalue_len(j, s->seq[j]) == (size_t)r->n);
    case B_NKEYS: return bstate_count(s) == r->n;
    case B_NTHKEY_ARG: return bstate_count(s) <= r->n;
    case B_NTHKEY:
        if (!s->pres[j]) return 0;
        for (int k = 0; k < KPT; k++) before += s->pres[k] && s->ins[k] < s->ins[j];
        return before == r->n;
    default:
        for (int k = 0; k < KPT; k++)
            if (s->pres[k] != r->pres[k] || (r->pres[k] && s->seq[k] != r->seq[k])) return 0;
        if (r->on != bstate_count(s)) return 0;
        for (int i = 0; i + 1 < r->on; i++)
            if (s->ins[r->olist[i]] >= s->ins[r->olist[i + 1]]) return 0;
        return 1;
    }
}

/* Whether read r of object o saw a state the object was really in after k of the writer's
 * changes, for some lo <= k <= hi: the same replay as check_view, over the keys r depends on
 * (and their insertion order if it depends on that). 1: yes; 0: no; -1: cannot tell. */
static int mostly_replay(const tstate *c, int o, uint64_t lo, uint64_t hi, const bseen *r) {
    bstate s;
    int need[KPT], left = 0, one = r->op == B_GET || r->op == B_VALUELEN;
    int order = r->op == B_NTHKEY || r->op == B_DUP;
    if (hi < lo || hi - lo >= LOG_LEN / 2) return -1;
    memset(&s, 0, sizeof s);
    for (int j = 0; j < KPT; j++) left += need[j] = !one || j == r->j;
    /* Back from lo: each key's state after lo changes, and when it was inserted. */
    for (uint64_t i = lo; left > 0 && i-- > 0;) {
        uint64_t e = ld(&c->log[o][i % LOG_LEN]);
        int j = (int)(e & 0xFF), op = (int)((e >> 8) & 0xFF);
        if ((e >> 16) != i || j >= KPT) return -1; /* overwritten since */
        if (!need[j]) continue;
        if (op == OP_DEL) {
            need[j] = 0, left--;
        } else if (need[j] == 1) {
            s.pres[j] = 1, s.seq[j] = s.ins[j] = i;
            if (order) need[j] = 2;
            else need[j] = 0, left--;
        } else {
            s.ins[j] = i;
        }
    }
    for (uint64_t k = lo;; k++) {
        uint64_t e;
        int j, op;
        if (bstate_fits(&s, r)) return 1;
        if (k == hi) return 0;
        e = ld(&c->log[o][k % LOG_LEN]);
        j = (int)(e & 0xFF), op = (int)((e >> 8) & 0xFF);
        if ((e >> 16) != k || j >= KPT) return -1;
        if (op == OP_DEL) {
            s.pres[j] = 0;
        } else {
            if (!s.pres[j]) s.ins[j] = k;
            s.pres[j] = 1;
            s.seq[j] = k;
        }
    }
}

static void mostly_judge(tstate *t, int line, int g, MPI_Info h, uint64_t lo, uint64_t hi, const bseen *r,
                       const char *what) {
    const bobj *b = &BO[g];
    int res = mostly_replay(b->w, b->wo, lo, hi, r);
    t->verified++;
    if (res < 0) {
        t->inconclusive++;
    } else if (res == 0) {
        char seen[200] = "";
        size_t used = 0;
        if (r->op == B_GET || r->op == B_VALUELEN)
            snprintf(seen, sizeof seen, r->pres[r->j] ? " b%d present, %s %" PRIu64 : " b%d absent", r->j,
                     r->op == B_GET ? "version" : "length", r->op == B_GET ? r->seq[r->j] : (uint64_t)r->n);
        else if (r->op != B_DUP)
            snprintf(seen, sizeof seen, " %s %d (after the %d others' keys)",
                     r->op == B_NKEYS ? "count" : "position", r->n, b->nx);
        else
            for (int i = 0; i < r->on && used + 24 < sizeof seen; i++)
                used += (size_t)snprintf(seen + used, sizeof seen - used, " b%d=%" PRIu64, r->olist[i],
                                         r->seq[r->olist[i]]);
        failf(t, b->cread, line, "replay",
              "%s of %s object %d (handle %d) saw a state it never had between its "
              "writer's changes %" PRIu64 " and %" PRIu64 ":%s",
              what, b->name, g, MPI_Info_toint(h), lo, hi, seen);
    }
}

static void xkey(char *out, int r) { snprintf(out, 32, "x%d", r); }

static MPI_Info bhandle(int g) { return handle_from_bits(ld(&BO[g].slot)); }

/* 1 (and *seq) if val is one of the values thread r has written (or is writing) to its key in
 * object g: version 0 (the owner's, when the object was made) up to r's last. */
static int xvalue_ok(int g, int r, const char *val, uint64_t *seq) {
    char key[32];
    xkey(key, r);
    return value_seq(key, val, seq) && *seq <= ld(&BO[g].xstarted[r]);
}

/* 1 if h holds exactly its writer's model of object g, in order, after the others' keys (each
 * with one of its values); else 0 and why. t: whose calls these are (NULL: main's). */
static int mostly_same(tstate *t, MPI_Info h, int g, char *why, size_t cap) {
    const bobj *b = &BO[g];
    const tstate *w = b->w;
    int o = b->wo, n = -7, rc = TIMED(t, W_NKEYS, MPI_Info_get_nkeys(h, &n));
    if (rc != MPI_SUCCESS || n != b->nx + w->norder[o]) {
        snprintf(why, cap, "nkeys: rc %d, %d, model %d", rc, n, b->nx + w->norder[o]);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], want[32], val[MPI_MAX_INFO_VAL + 1], expect[MPI_MAX_INFO_VAL];
        int j = i < b->nx ? -1 : w->order[o][i - b->nx], flag = -7, vl = -7;
        size_t len = 0;
        uint64_t s = 0;
        if (j < 0) {
            xkey(want, i);
        } else {
            bkey(want, j);
            len = make_bvalue(j, w->vseq[o][j], expect);
        }
        rc = TIMED(t, W_NTHKEY, MPI_Info_get_nthkey(h, i, key));
        if (rc != MPI_SUCCESS || strcmp(key, want) != 0) {
            snprintf(why, cap, "key %d: rc %d, \"%.40s\", model %s", i, rc, rc == MPI_SUCCESS ? key : "", want);
            return 0;
        }
        rc = TIMED(t, W_GET, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, val, &flag));
        if (j < 0) {
            if (rc != MPI_SUCCESS || flag != 1 || !xvalue_ok(g, i, val, &s)) {
                snprintf(why, cap, "value of %s: rc %d flag %d, none of its values: \"%.40s\"", want, rc, flag,
                         rc == MPI_SUCCESS && flag == 1 ? val : "");
                return 0;
            }
            continue;
        }
        if (rc != MPI_SUCCESS || flag != 1 || strcmp(val, expect) != 0) {
            snprintf(why, cap, "value of %s: rc %d flag %d, not version %" PRIu64, want, rc, flag, w->vseq[o][j]);
            return 0;
        }
        rc = TIMED(t, W_VALUELEN, MPI_Info_get_valuelen(h, key, &vl, &flag));
        if (rc != MPI_SUCCESS || flag != 1 || vl != (int)len) {
            snprintf(why, cap, "valuelen of %s: rc %d flag %d len %d, model %d", want, rc, flag, vl, (int)len);
            return 0;
        }
    }
    return 1;
}

/* Walks d, a dup of object g (ours alone), into r: 1 if it is well formed (the others' keys
 * first, in order; then each key of the writer's once; each value one of its key's values). */
static int mostly_walk_dup(tstate *t, MPI_Info d, int g, bseen *r, char *why, size_t cap) {
    int nx = BO[g].nx, n = -7, rc = TIMED(t, W_NKEYS, MPI_Info_get_nkeys(d, &n));
    if (rc != MPI_SUCCESS || n < nx || n > nx + KPT) {
        snprintf(why, cap, "nkeys: rc %d n %d", rc, n);
        return 0;
    }
    for (int pos = 0; pos < n; pos++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1], want[32];
        const char *p = key + 1;
        int j = -1, flag = -7;
        size_t bad = 0;
        uint64_t s = 0;
        rc = TIMED(t, W_NTHKEY, MPI_Info_get_nthkey(d, pos, key));
        if (pos < nx) {
            xkey(want, pos);
            if (rc != MPI_SUCCESS || strcmp(key, want) != 0) {
                snprintf(why, cap, "key %d of %d: rc %d \"%.40s\", not %s", pos, n, rc, rc == MPI_SUCCESS ? key : "",
                         want);
                return 0;
            }
            rc = TIMED(t, W_GET, MPI_Info_get(d, key, MPI_MAX_INFO_VAL - 1, val, &flag));
            if (rc != MPI_SUCCESS || flag != 1 || !xvalue_ok(g, pos, val, &s)) {
                snprintf(why, cap, "%s: rc %d flag %d, none of its values: \"%.40s\"", want, rc, flag,
                         rc == MPI_SUCCESS && flag == 1 ? val : "");
                return 0;
            }
            continue;
        }
        if (rc != MPI_SUCCESS || key[0] != 'b' || !parse_small(&p, &j) || *p || j >= KPT || r->pres[j]) {
            snprintf(why, cap, "key %d of %d: rc %d \"%.40s\" (no writer's key, or twice)", pos, n, rc,
                     rc == MPI_SUCCESS ? key : "");
            return 0;
        }
        rc = TIMED(t, W_GET, MPI_Info_get(d, key, MPI_MAX_INFO_VAL - 1, val, &flag));
        if (rc != MPI_SUCCESS || flag != 1 || !bvalue_check(t, j, val, strlen(val), &r->seq[j], &bad)) {
            snprintf(why, cap, "%.8s: rc %d flag %d, a value that is none of its versions (\"%.30s\", wrong "
                     "from byte %zu of %zu)", key, rc, flag, rc == MPI_SUCCESS && flag == 1 ? val : "", bad,
                     rc == MPI_SUCCESS && flag == 1 ? strlen(val) : (size_t)0);
            return 0;
        }
        r->pres[j] = 1;
        r->olist[r->on++] = j;
    }
    return 1;
}

/* What mostly_read does, by `pick` (0..999): */
#define PICK_NKEYS 800  /* get_nkeys */
#define PICK_NTHKEY 900 /* get_nthkey */
#define PICK_DUP 999    /* dup, then the dup walked */

/* One read of object g through h, which the thread read from the object's slot after the
 * writer had done lo0 changes to the object; the writer may since have replaced (and freed)
 * it. pick: which read (above); pos: get_nthkey's position (-1: any). Returns the call's
 * result. */
static int mostly_read(tstate *t, int g, MPI_Info h, uint64_t lo0, uint32_t pick, int pos) {
    const bobj *b = &BO[g];
    const tstate *w = b->w;
    int o = b->wo, nx = b->nx;
    char key[32], buf[MPI_MAX_INFO_VAL + 2], why[200] = "";
    bseen r;
    /* Changes done before the call. If h is still the one in the slot after that, it has
     * them all; if not, it was replaced, and has at least those done before h was read. */
    uint64_t lo = ld(&w->done[o]), freed = ld(&b->freed), hi, seq = 0;
    int current = handle_from_bits(ld(&b->slot)) == h;
    /* A handle whose free returned before the call began must be dead, while the window of
     * docs/reference.md, "Handles", covers it; beyond it the handle may name a new object, and
     * the call is not judged. */
    int was_freed = freed != 0 && handle_from_bits(freed) == h;
    int dead = was_freed && (uint32_t)((uint32_t)ld(&creations) - (uint32_t)(freed >> 32)) <
                                REUSE_WINDOW - WINDOW_MARGIN;
    int rc, rc0, flag = -7, n = -7, in = -7, ok = 1, judged = 1;
    size_t len = 0, bad = 0;
    MPI_Info d = (MPI_Info)0x5A5A5A5A;
    const char *what, *nul;
    memset(&r, 0, sizeof r);
    r.j = (int)rnd(t, KPT);
    bkey(key, r.j);
    fill_sentinel(buf, sizeof buf);
    if (pick < 480) {
        what = "a get", r.op = B_GET;
        rc = TIMED(t, W_GET, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, buf, &flag));
    } else if (pick < 600) {
        what = "a get_string", r.op = B_GET, in = n = MPI_MAX_INFO_VAL;
        rc = TIMED(t, W_GET_STRING, MPI_Info_get_string(h, key, &n, buf, &flag));
    } else if (pick < 740) {
        what = "a get_valuelen", r.op = B_VALUELEN;
        rc = TIMED(t, W_VALUELEN, MPI_Info_get_valuelen(h, key, &n, &flag));
    } else if (pick < 850) {
        what = "a get_nkeys", r.op = B_NKEYS;
        rc = TIMED(t, W_NKEYS, MPI_Info_get_nkeys(h, &n));
    } else if (pick < 992) {
        what = "a get_nthkey", r.op = B_NTHKEY, r.n = pos >= 0 ? pos : (int)rnd(t, (uint32_t)(nx + KPT + 1));
        rc = TIMED(t, W_NTHKEY, MPI_Info_get_nthkey(h, r.n, buf));
    } else {
        what = "a dup", r.op = B_DUP;
        note_create();
        rc = TIMED(t, W_DUP, MPI_Info_dup(h, &d));
    }
    hi = ld(&w->started[o]);
    rc0 = rc;
    st(&t->reads, t->reads + 1);
    if (was_freed && !dead) {
        if (rc == MPI_SUCCESS && r.op == B_DUP) TIMED(t, W_FREE, MPI_Info_free(&d));
        t->reads_unjudged++;
        return rc0;
    }
    if (rc == MPI_ERR_INFO) {
        /* only through a handle the writer has replaced (then maybe freed), writing nothing */
        EXPECT(t, b->cfree,
               handle_from_bits(ld(&b->slot)) != h && flag == -7 && n == in && d == (MPI_Info)0x5A5A5A5A &&
                   untouched(buf, 0, sizeof buf),
               "%s of %s object %d: MPI_ERR_INFO through handle %d, %s", what, b->name, g, MPI_Info_toint(h),
               handle_from_bits(ld(&b->slot)) == h ? "which is still its handle" : "outputs written");
        t->reads_dead++;
        return rc0;
    }
    if (r.op == B_NTHKEY && rc == MPI_ERR_ARG) { /* the object has at most r.n keys */
        EXPECT(t, b->cread, untouched(buf, 0, sizeof buf) && r.n >= nx,
               "get_nthkey(%d) of %s object %d = MPI_ERR_ARG, %s", r.n, b->name, g,
               r.n < nx ? "but the others' keys are always there" : "and it wrote");
        r.op = B_NTHKEY_ARG;
        r.n -= nx;
        judged = r.n >= 0;
        rc = MPI_SUCCESS;
    }
    EXPECT(t, b->cfree, rc == MPI_SUCCESS, "%s of %s object %d (handle %d): rc %d", what, b->name, g, MPI_Info_toint(h), rc);
    if (rc != MPI_SUCCESS) return rc0;
    if (dead) {
        EXPECT(t, b->cfree, 0, "%s through handle %d, freed before the call began, succeeded", what, MPI_Info_toint(h));
        if (r.op == B_DUP) TIMED(t, W_FREE, MPI_Info_free(&d));
        return rc0;
    }
    switch (r.op) {
    case B_GET:
        r.pres[r.j] = (unsigned char)(flag == 1);
        if (flag == 1) {
            nul = (const char *)memchr(buf, '\0', MPI_MAX_INFO_VAL);
            len = nul ? (size_t)(nul - buf) : 0;
            ok = nul && bvalue_check(t, r.j, buf, len, &seq, &bad) && untouched(buf, len + 1, sizeof buf) &&
                 (in < 0 || n == (int)len + 1);
            r.seq[r.j] = seq;
        } else {
            ok = flag == 0 && n == in && untouched(buf, 0, sizeof buf);
        }
        EXPECT(t, b->cread, ok,
               "%s of %s in %s object %d: flag %d, a value that is none of its versions "
               "(length %zu, buflen %d, \"%.40s\", wrong from byte %zu)",
               what, key, b->name, g, flag, len, n, flag == 1 ? buf : "", bad);
        break;
    case B_VALUELEN:
        r.pres[r.j] = (unsigned char)(flag == 1);
        r.n = n;
        ok = flag == 1 ? n >= 200 && n < MPI_MAX_INFO_VAL : flag == 0 && n == -7;
        EXPECT(t, b->cread, ok, "get_valuelen of %s in %s object %d: flag %d len %d", key, b->name, g, flag, n);
        break;
    case B_NKEYS:
        r.n = n - nx;
        ok = n >= nx && n <= nx + KPT;
        EXPECT(t, b->cread, ok, "get_nkeys of %s object %d: %d", b->name, g, n);
        break;
    case B_NTHKEY: {
        const char *p = buf + 1;
        nul = (const char *)memchr(buf, '\0', MPI_MAX_INFO_KEY);
        if (r.n < nx) { /* one of the others' keys, which are first and never move */
            char want[32];
            xkey(want, r.n);
            ok = nul && strcmp(buf, want) == 0 && untouched(buf, (size_t)(nul - buf) + 1, sizeof buf);
            EXPECT(t, b->cread, ok, "get_nthkey(%d) of %s object %d gave \"%.40s\", not %s", r.n, b->name, g,
                   nul ? buf : "(no NUL)", want);
            judged = 0;
            break;
        }
        ok = nul && buf[0] == 'b' && parse_small(&p, &r.j) && p == nul && r.j < KPT &&
             untouched(buf, (size_t)(nul - buf) + 1, sizeof buf);
        EXPECT(t, b->cread, ok, "get_nthkey(%d) of %s object %d gave \"%.40s\", no key of the writer's",
               r.n, b->name, g, nul ? buf : "(no NUL)");
        r.n -= nx;
        break;
    }
    case B_DUP:
        ok = d != h && mostly_walk_dup(t, d, g, &r, why, sizeof why);
        EXPECT(t, b->cread, ok, "dup of %s object %d (handle %d): %s", b->name, g, MPI_Info_toint(h), d == h ? "same handle" : why);
        {
            uint64_t c = ld(&creations);
            MPI_Info copy = d;
            int frc = TIMED(t, W_FREE, MPI_Info_free(&d));
            EXPECT(t, b->cread, frc == MPI_SUCCESS, "free of a dup: rc %d", frc);
            if (frc == MPI_SUCCESS) grave_push(copy, c);
        }
        t->bdups += (uint64_t)ok;
        break;
    default:
        break;
    }
    if (ok && judged) mostly_judge(t, __LINE__, g, h, current ? lo : lo0, hi, &r, what);
    return rc0;
}

/* A run of reads of object g through the handle its slot holds now, kept for the whole run
 * (so some reads use it after the writer has replaced it), dup_in_ten in ten of them dups;
 * now and then one through the handle the writer freed last. */
static void mostly_run(tstate *t, int g, int nreads, uint32_t dup_in_ten) {
    uint64_t lo0 = ld(&BO[g].w->done[BO[g].wo]), freed;
    MPI_Info h = bhandle(g);
    for (int i = 0; i < nreads; i++) {
        uint32_t pick = rnd(t, 1000);
        if (dup_in_ten && rnd(t, 10) < dup_in_ten) pick = PICK_DUP;
        mostly_read(t, g, h, lo0, pick, -1);
    }
    freed = ld(&BO[g].freed);
    if (freed != 0 && rnd(t, 4) == 0) mostly_read(t, g, handle_from_bits(freed), lo0, rnd(t, 1000), -1);
}

/* The writer's changes, logged as shared_change logs a thread's: log entry and count before
 * the call, done count after; then its model. */
static void mostly_change(tstate *t, int g, int j, int del) {
    bobj *b = &BO[g];
    MPI_Info h = bhandle(g);
    char key[32], val[MPI_MAX_INFO_VAL], back[MPI_MAX_INFO_VAL + 1];
    int o = b->wo, rc, flag = -7;
    uint64_t idx = ld(&t->started[o]);
    bkey(key, j);
    st(&t->log[o][idx % LOG_LEN], idx << 16 | (uint64_t)(del ? OP_DEL : OP_SET) << 8 | (uint64_t)j);
    st(&t->started[o], idx + 1);
    if (del) {
        rc = TIMED(t, W_DELETE, MPI_Info_delete(h, key));
        EXPECT(t, b->cwrite, rc == MPI_SUCCESS, "delete %s from %s object %d: rc %d", key, b->name, g, rc);
    } else {
        make_bvalue(j, idx, val);
        rc = TIMED(t, W_SET, MPI_Info_set(h, key, val));
        EXPECT(t, b->cwrite, rc == MPI_SUCCESS, "set %s in %s object %d: rc %d", key, b->name, g, rc);
    }
    st(&t->done[o], idx + 1);
    st(&t->writes, t->writes + 1);
    st(&b->wcount, b->wcount + 1);
    model_change(t, o, j, del, idx);
    if (!del) {
        if (rnd(t, 4) == 0) { /* and read it back: only the writer changes it */
            rc = TIMED(t, W_GET, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, back, &flag));
            EXPECT(t, b->cwrite, rc == MPI_SUCCESS && flag == 1 && strcmp(back, val) == 0,
                   "read back %s from %s object %d: rc %d flag %d", key, b->name, g, rc, flag);
        }
    }
}

/* Replace object g: a dup of it, or a new object filled with the same pairs in the same order
 * (the others' keys first, with the values the old object holds: either is the state after
 * the same changes, so the log goes on unchanged); publish it, then free the old one, which
 * readers may be reading. */
static void mostly_replace(tstate *t, int g) {
    bobj *b = &BO[g];
    uint64_t old = ld(&b->slot), c, serial;
    MPI_Info oh = handle_from_bits(old), nh = MPI_INFO_NULL, fh;
    char buf[8], why[200];
    int o = b->wo, rc, flag = -7;
    note_create();
    if (rnd(t, 2)) {
        rc = TIMED(t, W_DUP, MPI_Info_dup(oh, &nh));
    } else {
        rc = TIMED(t, W_CREATE, MPI_Info_create(&nh));
        for (int r = 0; rc == MPI_SUCCESS && r < b->nx; r++) {
            char key[32], val[MPI_MAX_INFO_VAL + 1];
            uint64_t s = 0;
            xkey(key, r);
            flag = -7;
            rc = TIMED(t, W_GET, MPI_Info_get(oh, key, MPI_MAX_INFO_VAL - 1, val, &flag));
            EXPECT(t, b->cwrite, rc == MPI_SUCCESS && flag == 1 && xvalue_ok(g, r, val, &s),
                   "get %s from %s object %d to copy it: rc %d flag %d", key, b->name, g, rc, flag);
            if (rc == MPI_SUCCESS) rc = TIMED(t, W_SET, MPI_Info_set(nh, key, flag == 1 ? val : "?"));
        }
        for (int i = 0; rc == MPI_SUCCESS && i < t->norder[o]; i++) {
            char key[32], val[MPI_MAX_INFO_VAL];
            int j = t->order[o][i];
            bkey(key, j);
            make_bvalue(j, t->vseq[o][j], val);
            rc = TIMED(t, W_SET, MPI_Info_set(nh, key, val));
        }
    }
    EXPECT(t, b->cwrite, rc == MPI_SUCCESS, "a replacement for %s object %d: rc %d", b->name, g, rc);
    if (rc != MPI_SUCCESS) return;
    EXPECT(t, b->cwrite, mostly_same(t, nh, g, why, sizeof why), "replacement for %s object %d: %s", b->name, g, why);
    serial = __atomic_add_fetch(&mostly_serial, 1, __ATOMIC_RELAXED);
    __atomic_exchange_n(&b->slot, serial << 32 | handle_bits(nh), __ATOMIC_ACQ_REL);
    if (rnd(t, 2)) sched_yield(); /* let readers that hold the old handle use it */
    c = ld(&creations);
    fh = oh;
    rc = TIMED(t, W_FREE, MPI_Info_free(&fh));
    EXPECT(t, b->cwrite, rc == MPI_SUCCESS && fh == MPI_INFO_NULL, "free of replaced %s object %d: rc %d",
           b->name, g, rc);
    st(&b->freed, (c & 0xFFFFFFFFu) << 32 | handle_bits(oh));
    flag = -7;
    rc = TIMED(t, W_GET, MPI_Info_get(oh, "b0", 7, buf, &flag));
    if (within_window(c))
        EXPECT(t, b->cfree, rc == MPI_ERR_INFO && flag == -7, "get on %s handle %d just freed: rc %d", b->name,
               MPI_Info_toint(oh), rc);
    grave_push(oh, c);
    st(&t->replaced, t->replaced + 1);
    st(&b->fmark, ld(&b->wcount)); /* a new lock: its writes in a row start here */
}

/* One change of object g by its writer t. The number of keys swings (sets win for 2^shift of
 * the writer's changes, deletes for the next 2^shift), so objects cross the library's
 * threshold for indexing their keys both ways. */
static void mostly_step(tstate *t, int g, int shift) {
    bobj *b = &BO[g];
    int j = (int)rnd(t, KPT), shrink = (int)(t->writes >> shift) & 1;
    if (t->present[b->wo][j]) {
        mostly_change(t, g, j, (int)rnd(t, 100) < (shrink ? 50 : 10));
    } else if (!shrink || rnd(t, 5) == 0) {
        mostly_change(t, g, j, 0);
    } else { /* a delete that finds nothing: still a call that locks the object to write */
        char key[32];
        int rc;
        bkey(key, j);
        rc = TIMED(t, W_DELETE, MPI_Info_delete(bhandle(g), key));
        EXPECT(t, b->cwrite, rc == MPI_ERR_INFO_NOKEY, "delete of absent %s from %s object %d: rc %d", key,
               b->name, g, rc);
        st(&b->wcount, b->wcount + 1);
    }
}

/* One step of the read-mostly writer. */
static void mostly_write(tstate *t) {
    int g = (int)rnd(t, NMOSTLY);
    if (rnd(t, 1000) < 15) mostly_replace(t, g);
    else mostly_step(t, g, 7);
}

static uint64_t pace_reads(void) {
    uint64_t sum = 0;
    for (int i = 0; i < npace; i++) sum += ld(&pace[i]->reads);
    return sum;
}

/* The writer: after every hundred to two thousand reads, a burst of 1 to 24 steps, and now
 * and then another burst right away: readers that come in between steps must never see a
 * change half made. The writer waits by sleeping, not
 * sched_yield(): with more threads than cores, a task that keeps yielding is put last (EEVDF
 * pushes its deadline back each time), and the writer would hardly write at all. */
static void *mostly_writer(void *arg) {
    tstate *t = (tstate *)arg;
    struct timespec pause = {0, 20000};
    while (!ld(&mostly_stop)) {
        uint64_t from = pace_reads(), wait = rnd(t, 8) == 0 ? rnd(t, 64) : 100 + rnd(t, 2000);
        int steps = 1 + (int)rnd(t, 24);
        while (pace_reads() - from < wait && !ld(&mostly_stop)) nanosleep(&pause, NULL);
        for (int i = 0; i < steps && !ld(&mostly_stop); i++) mostly_write(t);
    }
    st(&t->finished, 1);
    return NULL;
}

static void *mostly_reader(void *arg) {
    tstate *t = (tstate *)arg;
    while (!ld(&mostly_stop)) mostly_run(t, (int)rnd(t, NMOSTLY), 16 + (int)rnd(t, 1000), 0);
    st(&t->finished, 1);
    return NULL;
}

/* A churn thread: a few runs of reads, then exit. */
static void *churn_thread(void *arg) {
    tstate *t = (tstate *)arg;
    int runs = 1 + (int)rnd(t, 4);
    for (int i = 0; i < runs && !ld(&mostly_stop); i++) mostly_run(t, (int)rnd(t, NMOSTLY), 64 + (int)rnd(t, 500), 0);
    t->churned++;
    st(&t->finished, 1);
    return NULL;
}

static void start_thread(pthread_t *th, void *(*fn)(void *), tstate *t) {
    st(&t->finished, 0);
    if (pthread_create(th, NULL, fn, t) != 0) {
        perror("pthread_create");
        exit(2);
    }
}

/* Joins a thread once it says it has finished, watching the others meanwhile: a hung writer
 * holds its object's lock, so its readers would never finish either. */
static void join_watching(pthread_t th, const tstate *t) {
    struct timespec pause = {0, 1000000};
    while (!ld(&t->finished)) {
        hang_check();
        nanosleep(&pause, NULL);
    }
    pthread_join(th, NULL);
}

/* A read-mostly phase until `until` (and until the writer has made MOSTLY_MIN_WRITES changes and
 * a replacement): the readers T[], or (churn) churn threads, CHURN_POOL at a time and at least
 * CHURN_MIN in all. Returns the number of churn threads started. */
static uint64_t mostly_phase(int churn, double until) {
    pthread_t wt, rt[MAX_THREADS > CHURN_POOL ? MAX_THREADS : CHURN_POOL];
    uint64_t w0 = BW->writes, r0 = BW->replaced, started = 0;
    struct timespec pause = {0, churn ? 50000 : 1000000};
    int nr = churn ? CHURN_POOL : nthreads;
    st(&mostly_stop, 0);
    npace = nr;
    nwatched = 0;
    watch(BW);
    for (int i = 0; i < nr; i++) watch(pace[i] = churn ? CT[i] : T[i]);
    start_thread(&wt, mostly_writer, BW);
    for (int i = 0; i < nr; i++) start_thread(&rt[i], churn ? churn_thread : mostly_reader, pace[i]);
    started = (uint64_t)nr;
    for (;;) {
        if (churn)
            for (int i = 0; i < nr; i++)
                if (ld(&CT[i]->finished)) {
                    pthread_join(rt[i], NULL);
                    start_thread(&rt[i], churn_thread, CT[i]);
                    started++;
                }
        hang_check();
        if (now() >= until && ld(&BW->writes) - w0 >= MOSTLY_MIN_WRITES && ld(&BW->replaced) > r0 &&
            (!churn || started >= CHURN_MIN))
            break;
        nanosleep(&pause, NULL);
    }
    st(&mostly_stop, 1);
    for (int i = 0; i < nr; i++) join_watching(rt[i], pace[i]);
    join_watching(wt, BW);
    nwatched = 0;
    return started;
}

/* ---- owned objects: one thread's long runs of writes, with visitors -------------------- */

/* A read by the owner of its own object: exactly its model, after the others' keys. */
static void owner_read_own(tstate *t, int g) {
    const bobj *b = &BO[g];
    int o = b->wo, nx = b->nx, j = (int)rnd(t, KPT), op = (int)rnd(t, 10), rc, flag = -7, n = -7;
    int present = t->present[o][j], total = nx + t->norder[o];
    MPI_Info h = bhandle(g);
    char key[32], want[32], buf[MPI_MAX_INFO_VAL + 2];
    const char *expect = "";
    size_t len = 0;
    bkey(key, j);
    if (present) expect = bvalue(t, j, t->vseq[o][j], &len);
    fill_sentinel(buf, sizeof buf);
    t->own_reads++;
    if (op < 4) {
        rc = TIMED(t, W_GET, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, buf, &flag));
        EXPECT(t, C_OWNER,
               rc == MPI_SUCCESS && (present ? flag == 1 && memcmp(buf, expect, len + 1) == 0 &&
                                                   untouched(buf, len + 1, sizeof buf)
                                             : flag == 0 && untouched(buf, 0, sizeof buf)),
               "the owner's get of %s in its object %d: rc %d flag %d, expected %s %" PRIu64, key, g, rc, flag,
               present ? "version" : "none after change", t->vseq[o][j]);
    } else if (op < 5) {
        n = MPI_MAX_INFO_VAL;
        rc = TIMED(t, W_GET_STRING, MPI_Info_get_string(h, key, &n, buf, &flag));
        EXPECT(t, C_OWNER,
               rc == MPI_SUCCESS && (present ? flag == 1 && n == (int)len + 1 && memcmp(buf, expect, len + 1) == 0 &&
                                                   untouched(buf, len + 1, sizeof buf)
                                             : flag == 0 && n == MPI_MAX_INFO_VAL && untouched(buf, 0, sizeof buf)),
               "the owner's get_string of %s in its object %d: rc %d flag %d buflen %d, expected %s %" PRIu64, key,
               g, rc, flag, n, present ? "version" : "none after change", t->vseq[o][j]);
    } else if (op < 7) {
        rc = TIMED(t, W_VALUELEN, MPI_Info_get_valuelen(h, key, &n, &flag));
        EXPECT(t, C_OWNER, rc == MPI_SUCCESS && (present ? flag == 1 && n == (int)len : flag == 0 && n == -7),
               "the owner's get_valuelen of %s in its object %d: rc %d flag %d len %d, expected %d", key, g, rc,
               flag, n, present ? (int)len : -7);
    } else if (op < 8) {
        rc = TIMED(t, W_NKEYS, MPI_Info_get_nkeys(h, &n));
        EXPECT(t, C_OWNER, rc == MPI_SUCCESS && n == total, "the owner's get_nkeys of its object %d: rc %d n %d, "
               "expected %d", g, rc, n, total);
    } else {
        int pos = (int)rnd(t, (uint32_t)total + 1);
        rc = TIMED(t, W_NTHKEY, MPI_Info_get_nthkey(h, pos, buf));
        if (pos < total) {
            if (pos < nx) xkey(want, pos);
            else bkey(want, t->order[o][pos - nx]);
            EXPECT(t, C_OWNER, rc == MPI_SUCCESS && strcmp(buf, want) == 0 && untouched(buf, strlen(want) + 1, sizeof buf),
                   "the owner's get_nthkey(%d) of its object %d: rc %d \"%.40s\", expected %s", pos, g, rc,
                   rc == MPI_SUCCESS ? buf : "", want);
        } else {
            EXPECT(t, C_OWNER, rc == MPI_ERR_ARG && untouched(buf, 0, sizeof buf),
                   "the owner's get_nthkey(%d) of its object %d with %d keys: rc %d", pos, g, total, rc);
        }
    }
}

/* Another thread's key "x<r>" through h, the handle in the slot when it was read (slot: the
 * slot's word then): one of its values, and, if r's last set that returned before the get
 * began went to this very object, that one or a later one. Returns the call's result. */
static int xread(tstate *t, int cat, int g, uint64_t slot, int r, uint64_t *seen) {
    const bobj *b = &BO[g];
    MPI_Info h = handle_from_bits(slot);
    char key[32], buf[MPI_MAX_INFO_VAL + 2];
    uint64_t done = ld(&b->xdone[r]), s = 0;
    int rc, flag = -7, ok, theirs = done != 0 && done >> 32 == slot >> 32;
    xkey(key, r);
    fill_sentinel(buf, sizeof buf);
    rc = TIMED(t, W_GET, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, buf, &flag));
    if (rc == MPI_ERR_INFO && handle_from_bits(ld(&b->slot)) != h) { /* replaced and freed meanwhile */
        EXPECT(t, C_OFREE, flag == -7 && untouched(buf, 0, sizeof buf), "get %s from a freed handle wrote", key);
        return rc;
    }
    ok = rc == MPI_SUCCESS && flag == 1 && memchr(buf, '\0', MPI_MAX_INFO_VAL) && xvalue_ok(g, r, buf, &s) &&
         (!theirs || s >= (uint32_t)done);
    EXPECT(t, cat, ok,
           "get of %s in owned object %d (handle %d): rc %d flag %d \"%.40s\": not one of its values, or older "
           "than version %" PRIu64 " set before",
           key, g, MPI_Info_toint(h), rc, flag, rc == MPI_SUCCESS && flag == 1 ? buf : "", theirs ? done & 0xFFFFFFFFu : 0);
    *seen = theirs && ok; /* a set by another thread this read had to see */
    return rc;
}

/* The owner: the others' sets of their keys that returned before now are all there. */
static void owner_check_foreign(tstate *t, int g) {
    uint64_t slot = ld(&BO[g].slot);
    for (int r = 0; r < BO[g].nx; r++) {
        uint64_t seen = 0;
        int rc = xread(t, C_OFOREIGN, g, slot, r, &seen);
        EXPECT(t, C_OFOREIGN, rc == MPI_SUCCESS, "the owner's get of x%d in its object %d: rc %d", r, g, rc);
        t->fseen += seen;
    }
}

/* A burst of the owner's: 300 to 2000 changes of one of its objects, or of all of them
 * interleaved, with reads of its own now and then, and in one burst in six a replacement;
 * before and after it, the others' keys are checked. (In a hurry: 300 changes, and a
 * replacement.) */
static void owner_burst(tstate *t) {
    int g0 = NMOSTLY + t->own * OWN_OBJS, all = rnd(t, 4) == 0, g = g0 + (int)rnd(t, OWN_OBJS);
    int hurry = (int)ld(&own_hurry), n = hurry ? 300 : 300 + (int)rnd(t, 1701);
    int replace_at = hurry || rnd(t, 6) == 0 ? (int)rnd(t, (uint32_t)n) : -1;
    for (int k = 0; k < OWN_OBJS; k++)
        if (all || g0 + k == g) owner_check_foreign(t, g0 + k);
    for (int i = 0; i < n; i++) {
        int x = all ? g0 + (int)rnd(t, OWN_OBJS) : g;
        if ((i & 63) == 63 && ld(&own_stop)) break;
        if (i == replace_at) mostly_replace(t, x);
        else mostly_step(t, x, 9);
        if (rnd(t, 8) == 0) owner_read_own(t, x);
    }
    for (int k = 0; k < OWN_OBJS; k++)
        if (all || g0 + k == g) owner_check_foreign(t, g0 + k);
    if (rnd(t, 4) == 0) {
        char why[200];
        EXPECT(t, C_OWNER, mostly_same(t, bhandle(g), g, why, sizeof why), "owned object %d after a burst: %s", g, why);
    }
    st(&t->bursts, t->bursts + 1);
}

/* The calling thread's pthread_t as a number (an integer or a pointer on the systems this
 * runs on). Threads with the same one at different times have the same thread pointer. */
static uint64_t self_id(void) { return (uint64_t)(uintptr_t)pthread_self(); }

/* Whether t's thread is the one that exited before it under another name: counted. */
static void note_heir(tstate *t) {
    t->self = self_id();
    if (t->heir_of != 0 && t->self == t->heir_of) t->heirs++;
}

/* An owner's thread: 1 to OWN_LIFE bursts (1 in a hurry), sometimes a pause between them, then
 * it exits, right after writing its objects. */
static void *owner_thread(void *arg) {
    tstate *t = (tstate *)arg;
    int life = 1 + (int)rnd(t, OWN_LIFE);
    note_heir(t);
    for (int k = 0; k < OWN_OBJS; k++) { /* a new thread: its writes in a row start here */
        bobj *b = &BO[NMOSTLY + t->own * OWN_OBJS + k];
        st(&b->fmark, ld(&b->wcount));
    }
    for (int i = 0; i < life && !ld(&own_stop) && !(i > 0 && ld(&own_hurry)); i++) {
        if (i > 0 && rnd(t, 3)) {
            struct timespec pause = {0, (long)rnd(t, 1000000)};
            nanosleep(&pause, NULL);
        }
        owner_burst(t);
    }
    st(&t->finished, 1);
    return NULL;
}

/* Before another thread's access to object g: whether its owner has made OWN_AFTER changes
 * since anyone else came (then it most likely owned the object, and this access takes it
 * back). */
static void note_visit(tstate *t, int g) {
    uint64_t c = ld(&BO[g].wcount), prev = __atomic_exchange_n(&BO[g].fmark, c, __ATOMIC_ACQ_REL);
    if (c > prev && c - prev >= OWN_AFTER) t->took_back++;
}

/* get_nkeys, then get_nthkey on every position until MPI_ERR_ARG, each judged. */
static void owned_walk(tstate *t, int g) {
    uint64_t lo0 = ld(&BO[g].w->done[BO[g].wo]);
    MPI_Info h = bhandle(g);
    mostly_read(t, g, h, lo0, PICK_NKEYS, -1);
    for (int pos = 0; pos <= BO[g].nx + KPT; pos++)
        if (mostly_read(t, g, h, lo0, PICK_NTHKEY, pos) != MPI_SUCCESS) break;
    t->walks_owned++;
}

/* One of the first nfw threads sets its key in owned object g: only it writes that key, so a
 * get right after (through the same handle) shows exactly that value, unless the owner has
 * replaced and freed the object meanwhile. */
static void owned_foreign_write(tstate *t, int g) {
    bobj *b = &BO[g];
    uint64_t c0 = ld(&creations), slot = ld(&b->slot), seq = ld(&b->xstarted[t->id]) + 1;
    MPI_Info h = handle_from_bits(slot);
    char key[32], val[MPI_MAX_INFO_VAL], back[MPI_MAX_INFO_VAL + 1];
    int rc, flag = -7;
    xkey(key, t->id);
    make_value(key, seq, val);
    st(&b->xstarted[t->id], seq);
    rc = TIMED(t, W_SET, MPI_Info_set(h, key, val));
    st(&t->fwrites, t->fwrites + 1);
    if (rc != MPI_SUCCESS) {
        if (within_window(c0))
            EXPECT(t, C_OFREE, rc == MPI_ERR_INFO && handle_from_bits(ld(&b->slot)) != h,
                   "set %s in owned object %d (handle %d): rc %d", key, g, MPI_Info_toint(h), rc);
        t->fwrites_dead++;
        return;
    }
    st(&b->xdone[t->id], slot >> 32 << 32 | seq);
    if (rnd(t, 2)) {
        rc = TIMED(t, W_GET, MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, back, &flag));
        if (within_window(c0))
            EXPECT(t, C_OFOREIGN,
                   (rc == MPI_SUCCESS && flag == 1 && strcmp(back, val) == 0) ||
                       (rc == MPI_ERR_INFO && handle_from_bits(ld(&b->slot)) != h),
                   "read back %s just set in owned object %d (handle %d): rc %d flag %d", key, g, MPI_Info_toint(h), rc, flag);
    }
}

/* A reader of the owned phase: visits to random owned objects, 0.1 to 3 ms apart with 8
 * readers (longer with more, shorter with fewer: the objects see about the same number of
 * visits, so that their owners make their hundreds of changes in a row in between): short runs
 * of reads (one in ten a dup), walks, the others' keys, and (the first nfw threads) a set of
 * its own. */
static void *owned_reader(void *arg) {
    tstate *t = (tstate *)arg;
    while (!ld(&own_stop)) {
        int g = NMOSTLY + (int)rnd(t, NOWNED);
        uint32_t r = rnd(t, 100);
        uint64_t ns = (100000 + rnd(t, 2900000)) * (uint64_t)nthreads / PACE_THREADS;
        struct timespec pause = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
        note_visit(t, g);
        t->ovisits++;
        if (r < 15 && t->id < nfw) {
            owned_foreign_write(t, g);
        } else if (r < 30) {
            uint64_t seen = 0;
            xread(t, C_OFOREIGN, g, ld(&BO[g].slot), (int)rnd(t, (uint32_t)BO[g].nx), &seen);
            t->xreads++;
        } else if (r < 42) {
            owned_walk(t, g);
        } else {
            mostly_run(t, g, 1 + (int)rnd(t, 8), 1);
        }
        nanosleep(&pause, NULL);
    }
    st(&t->finished, 1);
    return NULL;
}

/* A visitor: started just after an owner's thread exited, before its successor, it is most
 * often given the exited thread's stack: it reads the owner's objects (runs, walks) while the
 * new owner starts writing them. */
static void *visitor_thread(void *arg) {
    tstate *t = (tstate *)arg;
    int runs = 1 + (int)rnd(t, 4);
    note_heir(t);
    for (int i = 0; i < runs && !ld(&own_stop); i++) {
        int g = NMOSTLY + t->own * OWN_OBJS + (int)rnd(t, OWN_OBJS);
        note_visit(t, g);
        t->ovisits++;
        if (rnd(t, 3) == 0) owned_walk(t, g);
        else mostly_run(t, g, 8 + (int)rnd(t, 120), 1);
    }
    st(&t->visits, t->visits + 1);
    st(&t->finished, 1);
    return NULL;
}

/* The owned phase until `until` (and until OWN_MIN_HANDOFFS owner threads have handed their
 * objects on, an owner has replaced an object, and, if any thread writes its key, one has;
 * after `until` the owners hurry to do that, for sanitizers and valgrind slow them down):
 * the owners' threads, each replaced by a new one when it exits (every other time with a
 * visitor started first, if a visitor slot is free), and the readers T[]. Returns the number
 * of handoffs; *visitors: visitor threads started. */
static uint64_t owned_phase(double until, uint64_t *visitors) {
    pthread_t ot[NOWNER], rt[MAX_THREADS], vt[VISIT_POOL];
    int vbusy[VISIT_POOL] = {0};
    uint64_t handoffs = 0, replaced0 = 0, started_v = 0;
    struct timespec pause = {0, 200000};
    st(&own_stop, 0);
    st(&own_hurry, 0);
    nwatched = 0;
    for (int k = 0; k < NOWNER; k++) watch(OW[k]), replaced0 += OW[k]->replaced;
    for (int i = 0; i < nthreads; i++) watch(T[i]);
    for (int v = 0; v < VISIT_POOL; v++) watch(VS[v]);
    for (int k = 0; k < NOWNER; k++) start_thread(&ot[k], owner_thread, OW[k]);
    for (int i = 0; i < nthreads; i++) start_thread(&rt[i], owned_reader, T[i]);
    for (;;) {
        uint64_t replaced = 0, fw = 0;
        for (int v = 0; v < VISIT_POOL; v++)
            if (vbusy[v] && ld(&VS[v]->finished)) {
                pthread_join(vt[v], NULL);
                vbusy[v] = 0;
            }
        for (int k = 0; k < NOWNER; k++) {
            if (!ld(&OW[k]->finished)) continue;
            pthread_join(ot[k], NULL);
            OW[k]->heir_of = OW[k]->self;
            if (handoffs++ % 2 == 0)
                for (int v = 0; v < VISIT_POOL; v++)
                    if (!vbusy[v]) {
                        VS[v]->own = k;
                        VS[v]->heir_of = OW[k]->self;
                        OW[k]->heir_of = 0;
                        start_thread(&vt[v], visitor_thread, VS[v]);
                        vbusy[v] = 1;
                        started_v++;
                        break;
                    }
            start_thread(&ot[k], owner_thread, OW[k]);
        }
        hang_check();
        for (int k = 0; k < NOWNER; k++) replaced += ld(&OW[k]->replaced);
        for (int i = 0; i < nfw; i++) fw += ld(&T[i]->fwrites);
        if (now() >= until) {
            if (handoffs >= OWN_MIN_HANDOFFS && replaced > replaced0 && (nfw == 0 || fw > 0)) break;
            st(&own_hurry, 1);
        }
        nanosleep(&pause, NULL);
    }
    st(&own_stop, 1);
    for (int i = 0; i < nthreads; i++) join_watching(rt[i], T[i]);
    for (int v = 0; v < VISIT_POOL; v++)
        if (vbusy[v]) join_watching(vt[v], VS[v]);
    for (int k = 0; k < NOWNER; k++) join_watching(ot[k], OW[k]);
    nwatched = 0;
    *visitors = started_v;
    return handoffs;
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

/* Which phase runs, for crashed(). */
static volatile sig_atomic_t phase;
static struct sigaction prev_segv, prev_bus;

/* SIGSEGV or SIGBUS: says in which phase (a library that lets a reader at memory a writer
 * freed crashes rather than fails a check), then puts the previous handler back and returns,
 * so the fault happens again and ends the program as it would have (or reaches a sanitizer's
 * handler). */
static void crashed(int sig) {
    static const char *const msg[] = {
        "stress: crashed in phase 1 (the mix)\n",
        "stress: crashed in phase 2 (read-mostly objects: reader threads)\n",
        "stress: crashed in phase 3 (read-mostly objects: churn threads)\n",
        "stress: crashed in phase 4 (owned objects: owners, their readers and writers, handoffs)\n",
        "stress: crashed after the phases\n"};
    const char *m = msg[phase >= 0 && phase < 5 ? phase : 4];
    if (write(2, m, strlen(m)) < 0) _exit(3);
    sigaction(sig, sig == SIGSEGV ? &prev_segv : &prev_bus, NULL);
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
    double seconds, t0, elapsed, t1, t2, t3, t4;
    uint64_t seed, ops = 0, verified = 0, inconclusive = 0, dups = 0, walks = 0, walk_arg = 0,
                   stale = 0, live = 0, dead = 0, unjudged = 0, retired = 0, adopted = 0;
    uint64_t breads = 0, bdead = 0, bunjudged = 0, bdups = 0, bverified = 0, binconclusive = 0, churned = 0,
             churn_started, rmax_ns = 0;
    /* the owned phase */
    uint64_t oreads = 0, odead = 0, ounjudged = 0, odups = 0, overified = 0, oinconclusive = 0, owalks = 0,
             ofw = 0, ofw_dead = 0, oxreads = 0, took_back = 0, visits = 0, bursts = 0, owrites = 0, oreplaced = 0,
             own_reads = 0, fseen = 0, omax_ns = 0, vmax_ns = 0, handoffs, visitors, ovisits = 0, oheirs = 0,
             vheirs = 0;
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
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = crashed;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, &prev_segv);
        sigaction(SIGBUS, &sa, &prev_bus);
    }
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
        pub[s] = serial << 32 | handle_bits(h);
    }
    nfw = nthreads < NX_MAX ? nthreads : NX_MAX;
    nall = nthreads + 1 + CHURN_POOL + NOWNER + VISIT_POOL;
    for (int i = 0; i < nall; i++) {
        tstate *t = (tstate *)calloc(1, sizeof(tstate));
        int c = i - nthreads - 1, k = c - CHURN_POOL, v = k - NOWNER;
        if (!t) exit(2);
        t->id = i;
        t->rng = mix64(seed + 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1));
        ALL[i] = t;
        if (i < nthreads) {
            T[i] = t;
            t->cats = CATS_WORKER | CATS_READER | CATS_OREADER;
            snprintf(t->role, sizeof t->role, "thread %d", i);
        } else if (i == nthreads) {
            BW = t;
            t->cats = CATS_WRITER;
            snprintf(t->role, sizeof t->role, "the read-mostly writer");
        } else if (c < CHURN_POOL) {
            CT[c] = t;
            t->cats = CATS_READER;
            snprintf(t->role, sizeof t->role, "churn slot %d", c);
        } else if (k < NOWNER) {
            OW[k] = t;
            t->own = k;
            t->cats = CATS_OWNER;
            snprintf(t->role, sizeof t->role, "owner %d", k);
        } else {
            VS[v] = t;
            t->cats = CATS_VISITOR;
            snprintf(t->role, sizeof t->role, "visitor slot %d", v);
        }
    }
    for (int g = 0; g < NBOBJ; g++) {
        bobj *b = &BO[g];
        int owned = g >= NMOSTLY;
        b->w = owned ? OW[(g - NMOSTLY) / OWN_OBJS] : BW;
        b->wo = owned ? (g - NMOSTLY) % OWN_OBJS : g;
        b->nx = owned ? nfw : 0;
        b->cread = owned ? C_OREAD : C_BREAD;
        b->cfree = owned ? C_OFREE : C_BFREE;
        b->cwrite = owned ? C_OWNER : C_BWRITE;
        b->name = owned ? "owned" : "read-mostly";
    }
    if (pthread_barrier_init(&barrier, NULL, (unsigned)nthreads + 1) != 0) exit(2);
    for (int i = 0; i < nthreads; i++)
        if (pthread_create(&th[i], NULL, worker, T[i]) != 0) {
            perror("pthread_create");
            exit(2);
        }
    /* Phase 1, two fifths of the time: the mix. */
    t0 = now();
    deadline = t0 + seconds * 2 / 5;
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < nthreads; i++) pthread_join(th[i], NULL);
    elapsed = now() - t0;
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < nthreads; i++) {
        tstate *t = T[i];
        ops += t->ops, verified += t->verified, inconclusive += t->inconclusive;
        dups += t->dups_checked, walks += t->walks, walk_arg += t->walk_arg;
        stale += t->stale_calls, live += t->stale_live, dead += t->stale_dead;
        unjudged += t->stale_unjudged, retired += t->retired, adopted += t->adopted;
        t->verified = t->inconclusive = 0; /* from here on, the read-mostly phases' */
    }

    /* Phases 2 and 3, a fifth of the time each: the read-mostly objects, filled by the
     * writer's logged changes before anyone reads them. */
    for (int g = 0; g < NMOSTLY; g++) {
        MPI_Info h = MPI_INFO_NULL;
        note_create();
        CHECK_RC(MPI_Info_create(&h), MPI_SUCCESS);
        BO[g].slot = ++mostly_serial << 32 | handle_bits(h);
        for (int k = 0; k < 10; k++) mostly_change(BW, g, (int)rnd(BW, KPT), 0);
    }
    t1 = now();
    phase = 1;
    mostly_phase(0, t0 + seconds * 3 / 5);
    t2 = now();
    phase = 2;
    churn_started = mostly_phase(1, t0 + seconds * 4 / 5);
    t3 = now();
    phase = 3;
    for (int i = 0; i < nthreads; i++) { /* what the read-mostly phases did; from here on, the owned phase's */
        tstate *t = T[i];
        breads += t->reads, bdead += t->reads_dead, bunjudged += t->reads_unjudged, bdups += t->bdups;
        bverified += t->verified, binconclusive += t->inconclusive;
        if (t->max_call_ns > rmax_ns) rmax_ns = t->max_call_ns;
        t->reads = t->reads_dead = t->reads_unjudged = t->bdups = t->verified = t->inconclusive = 0;
        t->max_call_ns = 0;
    }
    for (int i = 0; i < CHURN_POOL; i++) {
        tstate *t = CT[i];
        breads += t->reads, bdead += t->reads_dead, bunjudged += t->reads_unjudged, bdups += t->bdups;
        bverified += t->verified, binconclusive += t->inconclusive, churned += t->churned;
        if (t->max_call_ns > rmax_ns) rmax_ns = t->max_call_ns;
    }
    bverified += BW->verified, binconclusive += BW->inconclusive;

    /* Phase 4, the last fifth: the owned objects, each made with the others' keys first
     * (version 0), then filled by its owner's logged changes. */
    for (int g = NMOSTLY; g < NBOBJ; g++) {
        MPI_Info h = MPI_INFO_NULL;
        note_create();
        CHECK_RC(MPI_Info_create(&h), MPI_SUCCESS);
        BO[g].slot = ++mostly_serial << 32 | handle_bits(h);
        for (int r = 0; r < BO[g].nx; r++) {
            char key[32], val[MPI_MAX_INFO_VAL];
            xkey(key, r);
            make_value(key, 0, val);
            CHECK_RC(MPI_Info_set(h, key, val), MPI_SUCCESS);
        }
        for (int k = 0; k < 10; k++) mostly_change(BO[g].w, g, (int)rnd(BO[g].w, KPT), 0);
    }
    handoffs = owned_phase(t0 + seconds, &visitors);
    t4 = now();
    phase = 4;

    /* each thread's record: one check per (thread, category it takes part in) */
    for (int i = 0; i < nall; i++) {
        tstate *t = ALL[i];
        for (int c = 0; c < NCAT; c++) {
            if (!(t->cats >> c & 1) && !t->failures[c]) continue;
            CHECK(t->failures[c] == 0);
            if (t->failures[c])
                fprintf(stderr, "  %s: %s: %d failures; first at %s %s\n", t->role, cat_name[c], t->failures[c],
                        __FILE__, t->first[c]);
        }
    }
    for (int i = 0; i < nthreads; i++) {
        tstate *t = T[i];
        oreads += t->reads, odead += t->reads_dead, ounjudged += t->reads_unjudged, odups += t->bdups;
        overified += t->verified, oinconclusive += t->inconclusive, owalks += t->walks_owned;
        ofw += t->fwrites, ofw_dead += t->fwrites_dead, oxreads += t->xreads, took_back += t->took_back;
        ovisits += t->ovisits;
        if (t->max_call_ns > vmax_ns) vmax_ns = t->max_call_ns;
    }
    for (int v = 0; v < VISIT_POOL; v++) {
        tstate *t = VS[v];
        oreads += t->reads, odead += t->reads_dead, ounjudged += t->reads_unjudged, odups += t->bdups;
        overified += t->verified, oinconclusive += t->inconclusive, owalks += t->walks_owned;
        took_back += t->took_back, visits += t->visits, ovisits += t->ovisits, vheirs += t->heirs;
        if (t->max_call_ns > vmax_ns) vmax_ns = t->max_call_ns;
    }
    for (int k = 0; k < NOWNER; k++) {
        tstate *t = OW[k];
        overified += t->verified, oinconclusive += t->inconclusive;
        bursts += t->bursts, owrites += t->writes, oreplaced += t->replaced, own_reads += t->own_reads;
        fseen += t->fseen, oheirs += t->heirs;
        if (t->max_call_ns > omax_ns) omax_ns = t->max_call_ns;
    }
    /* many short-lived threads came and went, and no call hung */
    CHECK(churn_started > 128 && churned == churn_started);
    CHECK(BW->max_call_ns < (uint64_t)HANG_SECONDS * 1000000000u);
    CHECK(rmax_ns < (uint64_t)HANG_SECONDS * 1000000000u);
    /* owner threads handed their objects on, visitors came and went, and no call hung */
    CHECK(handoffs >= OWN_MIN_HANDOFFS && visits == visitors);
    CHECK(omax_ns < (uint64_t)HANG_SECONDS * 1000000000u && vmax_ns < (uint64_t)HANG_SECONDS * 1000000000u);

    /* the shared objects: exactly the union of what each thread knows it wrote */
    for (int o = 0; o < NSHARED; o++) final_shared(o);

    /* the read-mostly and owned objects: exactly their writer's model; in the owned ones, the
     * others' keys each with its thread's last value that reached this object */
    for (int g = 0; g < NBOBJ; g++) {
        MPI_Info h = handle_from_bits(BO[g].slot);
        char why[200];
        int same = mostly_same(NULL, h, g, why, sizeof why), xsame = 1;
        CHECK(same);
        if (!same) fprintf(stderr, "  %s object %d: %s\n", BO[g].name, g, why);
        for (int r = 0; r < BO[g].nx; r++) {
            char key[32], val[MPI_MAX_INFO_VAL + 1];
            uint64_t done = BO[g].xdone[r], s = 0;
            int flag = -7;
            xkey(key, r);
            if (MPI_Info_get(h, key, MPI_MAX_INFO_VAL - 1, val, &flag) != MPI_SUCCESS || flag != 1 ||
                !xvalue_ok(g, r, val, &s) || (done >> 32 == BO[g].slot >> 32 && s != (done & 0xFFFFFFFFu))) {
                fprintf(stderr, "  owned object %d: %s is not thread %d's last set of it\n", g, key, r);
                xsame = 0;
            }
        }
        CHECK(xsame);
        CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
    }

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
        MPI_Info h = handle_from_bits(pub[s]);
        char why[200];
        int okp = pub_contents_ok(T[0], h, pub[s] >> 32, why, sizeof why);
        CHECK(okp);
        if (!okp) fprintf(stderr, "  published slot %d: %s\n", s, why);
        CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
    }

    /* every remembered freed handle is dead (while the window of docs/reference.md, "Handles",
     * covers it) */
    {
        int all_dead = 1;
        for (int i = 0; i < GRAVE; i++) {
            uint64_t g = grave[i];
            int n = -7;
            if (g == 0 || (uint32_t)((uint32_t)creations - (uint32_t)(g >> 32)) >= REUSE_WINDOW - WINDOW_MARGIN)
                continue;
            if (MPI_Info_get_nkeys(handle_from_bits(g), &n) != MPI_ERR_INFO || n != -7) all_dead = 0;
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
    printf("stress: read-mostly objects: %.2f s with %d reader threads, then %.2f s with %" PRIu64
           " churn threads (%d at once); %" PRIu64 " reads (%" PRIu64 " MPI_ERR_INFO through replaced handles, %" PRIu64
           " not judged, %" PRIu64 " dups walked); %" PRIu64 " verifications (%" PRIu64 " replays inconclusive); the writer: %" PRIu64
           " writes, %" PRIu64 " objects replaced, longest call %.3f s\n",
           t2 - t1, nthreads, t3 - t2, churn_started, CHURN_POOL, breads, bdead, bunjudged, bdups, bverified,
           binconclusive, BW->writes, BW->replaced, (double)BW->max_call_ns * 1e-9);
    printf("stress: owned objects: %.2f s, %d owners of %d objects each, %" PRIu64 " owner threads handed "
           "their objects on (to a thread with the same thread pointer: %" PRIu64 " new owners, %" PRIu64 " of %" PRIu64
           " visitors that came first); the owners: %" PRIu64 " bursts, %" PRIu64
           " writes, %" PRIu64 " objects replaced, %" PRIu64 " reads of their own, %" PRIu64
           " of the others' sets checked; %d other threads: %" PRIu64 " reads (%" PRIu64
           " MPI_ERR_INFO through replaced handles, %" PRIu64 " not judged, %" PRIu64 " dups walked, %" PRIu64
           " walks), %" PRIu64 " reads of the others' keys, %" PRIu64 " writes (%" PRIu64
           " through replaced handles); about %" PRIu64 " of %" PRIu64 " visits came after a long run of its owner's writes; %" PRIu64
           " verifications (%" PRIu64 " replays inconclusive); longest call: an owner's %.3f s, another's %.3f s "
           "(read-mostly readers' %.3f s)\n",
           t4 - t3, NOWNER, OWN_OBJS, handoffs, oheirs, vheirs, visitors, bursts, owrites, oreplaced, own_reads,
           fseen, nthreads, oreads, odead, ounjudged, odups, owalks, oxreads, ofw, ofw_dead, took_back, ovisits,
           overified, oinconclusive,
           (double)omax_ns * 1e-9, (double)vmax_ns * 1e-9, (double)rmax_ns * 1e-9);
    for (int i = nthreads; i < nall; i++) free(ALL[i]);
    return check_report();
}
