/* info_fuzz.c - a libFuzzer target for the whole C API, checked against a reference model.
 *
 * LLVMFuzzerTestOneInput decodes its input into up to MAX_CALLS calls of the C API (every
 * function, through its MPI_ or PMPI_ name) and checks each one against a model of the rules of
 * docs/reference.md, "Types and constants" to "MPI_INFO_ENV and MPI_Info_create_env": the exact
 * return class (including which one wins when several arguments are bad), every byte written to an
 * output buffer, every int written through an output pointer, that outputs are untouched on error
 * and where the rules say so on success (flag 0, *buflen == 0), and that the object the call named
 * still holds exactly what the model holds.
 *
 * Input strings and output buffers are placed so that they end exactly where an inaccessible
 * page begins: reading past a string's NUL, reading more than MPI_MAX_INFO_KEY /
 * MPI_MAX_INFO_VAL bytes of an unterminated string, or writing one byte past what a call may
 * write faults at once. Output buffers are pre-filled with 0xA5 bytes (ints with 0xA5A5A5A5),
 * so any byte written that the rules do not allow is seen too.
 *
 * On the first difference the harness prints what differed and every call of the input so far
 * to stderr and calls abort(), which libFuzzer records as a crash (and fuzz/replay_main.c as a
 * failed input). Every object created by an input is checked in full and freed at its end, so
 * replaying one input in a fresh process always does the same calls.
 *
 * The input format (also what fuzz/gen_corpus.py writes): a sequence of calls, each an opcode
 * byte (low 4 bits: the function, see enum op; bit 4: PMPI_ instead of MPI_) followed by the
 * bytes its argument decoders read. A decoder that runs out of input reads zeros.
 *
 * Built with MPI_INFO_TEST_ABI, it checks the standard ABI build (mpi_info_abi.h, pointer
 * handles) with the same inputs: the model still names objects by their integer form, and the
 * harness passes the library the handle whose address that is. That library has no
 * MPI_Info_c2f/f2c, so the conversion calls are toint and fromint, checked against addresses. */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifdef MPI_INFO_TEST_ABI
#include "mpi_info_abi.h"
#else
#include "mpi_info.h"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Checks made so far in this process (fuzz/replay_main.c reports them). */
unsigned long long info_fuzz_checks;

#define MAX_CALLS 256
#define MAX_OBJS 48       /* live objects at once; calls that would create more are skipped */
#define FILL_LIMIT 200    /* OP_FILL stops adding keys to an object that has this many */
#define NSLOTS 8          /* the handle variables an input's "program" holds */
#define MAX_STALE 64
#define INT_SENT ((int)0xA5A5A5A5u)
#define BYTE_SENT 0xA5
#define KEY_MAX (MPI_MAX_INFO_KEY - 1)   /* 255 */
#define VAL_MAX (MPI_MAX_INFO_VAL - 1)   /* 1023 */

/* ---------------------------------------------------------------- the API, both names */

struct api {
    const char *prefix;
    int (*create)(MPI_Info *);
    int (*set)(MPI_Info, const char *, const char *);
    int (*del)(MPI_Info, const char *);
    int (*get)(MPI_Info, const char *, int, char *, int *);
    int (*get_valuelen)(MPI_Info, const char *, int *, int *);
    int (*get_string)(MPI_Info, const char *, int *, char *, int *);
    int (*get_nkeys)(MPI_Info, int *);
    int (*get_nthkey)(MPI_Info, int, char *);
    int (*dup)(MPI_Info, MPI_Info *);
    int (*free_)(MPI_Info *);
    int (*create_env)(int, char **, MPI_Info *);
    int (*toint)(MPI_Info);
    MPI_Info (*fromint)(int);
    int (*error_string)(int, char *, int *);
    int (*error_class)(int, int *);
#ifndef MPI_INFO_TEST_ABI
    MPI_Fint (*c2f)(MPI_Info);
    MPI_Info (*f2c)(MPI_Fint);
#endif
};

#ifdef MPI_INFO_TEST_ABI
#define FORTRAN_CONVERSIONS(prefix)
#else
#define FORTRAN_CONVERSIONS(prefix) , prefix##_Info_c2f, prefix##_Info_f2c
#endif
static const struct api APIS[2] = {
    {"MPI", MPI_Info_create, MPI_Info_set, MPI_Info_delete, MPI_Info_get, MPI_Info_get_valuelen,
     MPI_Info_get_string, MPI_Info_get_nkeys, MPI_Info_get_nthkey, MPI_Info_dup, MPI_Info_free,
     MPI_Info_create_env, MPI_Info_toint, MPI_Info_fromint, MPI_Error_string, MPI_Error_class
     FORTRAN_CONVERSIONS(MPI)},
    {"PMPI", PMPI_Info_create, PMPI_Info_set, PMPI_Info_delete, PMPI_Info_get,
     PMPI_Info_get_valuelen, PMPI_Info_get_string, PMPI_Info_get_nkeys, PMPI_Info_get_nthkey,
     PMPI_Info_dup, PMPI_Info_free, PMPI_Info_create_env, PMPI_Info_toint, PMPI_Info_fromint,
     PMPI_Error_string, PMPI_Error_class FORTRAN_CONVERSIONS(PMPI)},
};

/* The model names objects by a handle's integer form; the library takes and gives handles.
 * With MPI_INFO_TEST_ABI a handle is the address that is its integer form (as MPI_Info_fromint
 * and MPI_Info_toint say, which op_convert checks), and an address no int is names no object:
 * it becomes -1, which names none either. */
static MPI_Info H(int h) { return (MPI_Info)(intptr_t)h; }
#ifdef MPI_INFO_TEST_ABI
static int I(MPI_Info h) { return (uintptr_t)h <= INT_MAX ? (int)(uintptr_t)h : -1; }
/* The integer forms of MPI_INFO_NULL and MPI_INFO_ENV, as constant expressions (the standard
 * ABI's values; init_once checks them against the header's). */
#define NULL_INT 0x130
#define ENV_INT 0x131
#else
static int I(MPI_Info h) { return h; }
#define NULL_INT MPI_INFO_NULL
#define ENV_INT MPI_INFO_ENV
#endif

/* ---------------------------------------------------------------- failure reporting */

/* The calls of the current input, one line each (the oldest dropped when it fills up). */
static char g_log[32768];
static size_t g_loglen;
static int g_call;

static void log_line(const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t len = (size_t)n < sizeof line - 1 ? (size_t)n : sizeof line - 2;
    line[len++] = '\n';
    if (g_loglen + len > sizeof g_log) {
        size_t keep = sizeof g_log / 2;
        memmove(g_log, g_log + g_loglen - keep, keep);
        memcpy(g_log, "[...]\n", 6);
        g_loglen = keep;
    }
    memcpy(g_log + g_loglen, line, len);
    g_loglen += len;
}

static void fail(int line, const char *cond, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "info_fuzz: MISMATCH in call #%d (harness line %d): %s\n  ", g_call, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\ninfo_fuzz: the calls of this input so far (the last one failed):\n%.*s",
            (int)g_loglen, g_log);
    fflush(stderr);
    abort();
}

/* EXPECT(cond, fmt, ...): one check; on failure print and abort. */
#define EXPECT(cond, ...)                                          \
    do {                                                           \
        info_fuzz_checks++;                                        \
        if (!(cond)) fail(__LINE__, #cond, __VA_ARGS__);           \
    } while (0)

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "info_fuzz: harness out of memory\n");
        abort();
    }
    return p;
}

/* ---------------------------------------------------------------- input decoding */

struct rd {
    const uint8_t *p;
    size_t n, i;
};

static unsigned u8(struct rd *r) { return r->i < r->n ? r->p[r->i++] : 0u; }

static uint32_t u32(struct rd *r) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v = (v << 8) | u8(r);
    return v;
}

static int i32_of(uint32_t v) {
    int x;
    memcpy(&x, &v, sizeof x);
    return x;
}

static int clamp_int(long long v) { return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : (int)v; }

/* ---------------------------------------------------------------- guarded memory */

/* Regions of REG_SIZE bytes, each followed by an inaccessible page. Strings and buffers are
 * placed so that they end at reg_end[i]. */
enum { R_KEY, R_VAL, R_ARG0, R_ARG1, R_ARG2, R_ARG3, R_ARG4, R_ARGV, R_OUT, R_I0, R_I1, R_I2,
       R_VKEYIN, R_VKEY, R_VVAL, R_VI0, R_VI1, R_LIST, NREG };
#define MAX_ARGC 5
#define REG_SIZE 16384
#define PRE_GUARD 64 /* bytes before an output buffer that must stay untouched as well */
static unsigned char *reg_end[NREG];

static void map_regions(void) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t span = (REG_SIZE + page - 1) / page * page;
    for (int i = 0; i < NREG; i++) {
        unsigned char *base = (unsigned char *)mmap(NULL, span + page, PROT_READ | PROT_WRITE,
                                                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED || mprotect(base + span, page, PROT_NONE) != 0) {
            perror("info_fuzz: mmap");
            abort();
        }
        reg_end[i] = base + span;
    }
}

/* An output buffer of n bytes ending at the guard page, pre-filled with the sentinel, and
 * PRE_GUARD sentinel bytes before it. */
static char *obuf(int reg, size_t n) {
    unsigned char *p = reg_end[reg] - n;
    memset(p - PRE_GUARD, BYTE_SENT, n + PRE_GUARD);
    return (char *)p;
}

/* An int output ending at the guard page, holding INT_SENT (or `init`). */
static int *iout(int reg, int init) {
    int *p = (int *)(void *)(reg_end[reg] - sizeof(int));
    *p = init;
    return p;
}

/* A handle output ending at the guard page, holding `init`. */
static MPI_Info *hout(int reg, MPI_Info init) {
    MPI_Info *p = (MPI_Info *)(void *)(reg_end[reg] - sizeof(MPI_Info));
    *p = init;
    return p;
}

/* buf (size bytes from obuf) holds exactly `n` bytes of `expect` (the last of which is the
 * NUL) and the sentinel everywhere else, including the PRE_GUARD bytes before it. */
/* The byte loops that check output buffers run thousands of times per input: compiled
 * without coverage instrumentation they cost a fraction (they find nothing for the fuzzer). */
#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define NO_COVERAGE
#endif

/* The index of the first byte of b[0..n) that differs from a[i] (or from c when a is NULL),
 * or n. */
NO_COVERAGE static size_t first_diff(const unsigned char *b, const unsigned char *a, int c, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (b[i] != (a ? a[i] : (unsigned char)c)) return i;
    return n;
}

/* The PRE_GUARD bytes before buf still hold the sentinel. */
static void check_pre(const char *buf, const char *what) {
    const unsigned char *b = (const unsigned char *)buf - PRE_GUARD;
    size_t i = first_diff(b, NULL, BYTE_SENT, PRE_GUARD);
    info_fuzz_checks++;
    if (i != PRE_GUARD)
        fail(__LINE__, "bytes before the buffer untouched", "%s: byte %d before the buffer was "
             "written (0x%02x)", what, (int)i - PRE_GUARD, b[i]);
}

/* Bytes [from, size) of buf still hold the sentinel. */
static void check_tail(const char *what, const char *buf, size_t size, size_t from) {
    const unsigned char *b = (const unsigned char *)buf;
    size_t i = from + first_diff(b + from, NULL, BYTE_SENT, size - from);
    info_fuzz_checks++;
    if (i != size)
        fail(__LINE__, "bytes after the output untouched", "%s: byte %zu of a %zu-byte buffer "
             "was written (0x%02x); only %zu bytes may be", what, i, size, b[i], from);
}

/* buf (size bytes from obuf) holds exactly the n bytes of `expect` (the last one the NUL) and
 * the sentinel everywhere else, including the PRE_GUARD bytes before it. */
static void check_buf(const char *what, const char *buf, size_t size, const char *expect, size_t n) {
    const unsigned char *b = (const unsigned char *)buf;
    check_pre(buf, what);
    size_t i = first_diff(b, (const unsigned char *)expect, 0, n);
    info_fuzz_checks++;
    if (i != n)
        fail(__LINE__, "output bytes as the model says", "%s: byte %zu of the output is 0x%02x, "
             "expected 0x%02x (%zu bytes expected written: the first %zu of the value, then a NUL)",
             what, i, b[i], (unsigned char)expect[i], n, n - 1);
    check_tail(what, buf, size, n);
}

/* ---------------------------------------------------------------- input strings */

/* A string argument: p is what the library gets (NULL or inside a region); len is how many
 * bytes come before its NUL, or how many are readable when there is no NUL (unterminated,
 * always at least one more than the limit). */
struct str {
    const char *p;
    size_t len;
    int terminated;
};

/* The buffer the last successful get_nthkey wrote, for gen_key (whatever it holds by then),
 * and the end of its region: the guard page. */
static const char *g_listed, *g_listed_end;

static struct str null_str(void) {
    struct str s = {NULL, 0, 1};
    return s;
}

static struct str place(int reg, const void *bytes, size_t n, int terminate) {
    unsigned char *p = reg_end[reg] - n - (terminate ? 1 : 0);
    memcpy(p, bytes, n);
    if (terminate) p[n] = 0;
    const unsigned char *nul = (const unsigned char *)memchr(p, 0, n);
    struct str s = {(const char *)p, nul ? (size_t)(nul - p) : n, terminate || nul};
    return s;
}

static int key_ok(struct str k) { return k.p && k.len >= 1 && k.len <= KEY_MAX; }
static int val_ok(struct str v) { return v.p && v.len <= VAL_MAX; }

/* A short, printable description of a string argument for the log. */
static const char *desc(struct str s, char *out, size_t cap) {
    if (!s.p) return "NULL";
    size_t o = 0;
    out[o++] = '"';
    for (size_t i = 0; i < s.len && i < 24 && o + 6 < cap; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') out[o++] = (char)c;
        else o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
    }
    snprintf(out + o, cap - o, "%s\" (%zu bytes%s)", s.len > 24 ? "..." : "", s.len,
             s.terminated ? "" : ", no NUL before the guard page");
    return out;
}

/* ---------------------------------------------------------------- the model */

struct pair {
    char *k, *v; /* NUL-terminated copies */
    size_t kl, vl;
};

struct obj {
    int handle;
    int n, cap;
    struct pair *p;
};

static struct obj objs[MAX_OBJS]; /* live objects, in no particular order */
static int nobjs;
static struct obj env_model;      /* MPI_INFO_ENV, read once at start */
static int slots[NSLOTS];         /* the input's handle variables */
static int stale[MAX_STALE];      /* handles freed by this input */
static int nstale;
static unsigned long long creations; /* objects created in this process */

static char *dupbytes(const char *s, size_t n) {
    char *d = (char *)xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static int obj_find(const struct obj *o, const char *k, size_t kl) {
    for (int i = 0; i < o->n; i++)
        if (o->p[i].kl == kl && memcmp(o->p[i].k, k, kl) == 0) return i;
    return -1;
}

/* Set, as docs/reference.md, "Order", says: replacing keeps the position, a new key goes last.
 * Returns its index. */
static int obj_set(struct obj *o, const char *k, size_t kl, const char *v, size_t vl) {
    int i = obj_find(o, k, kl);
    if (i >= 0) {
        free(o->p[i].v);
        o->p[i].v = dupbytes(v, vl);
        o->p[i].vl = vl;
        return i;
    }
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 8;
        struct pair *np = (struct pair *)realloc(o->p, (size_t)o->cap * sizeof *np);
        if (!np) {
            fprintf(stderr, "info_fuzz: harness out of memory\n");
            abort();
        }
        o->p = np;
    }
    o->p[o->n].k = dupbytes(k, kl);
    o->p[o->n].kl = kl;
    o->p[o->n].v = dupbytes(v, vl);
    o->p[o->n].vl = vl;
    return o->n++;
}

/* Delete: later keys move down by one. */
static void obj_del(struct obj *o, int i) {
    free(o->p[i].k);
    free(o->p[i].v);
    memmove(&o->p[i], &o->p[i + 1], (size_t)(o->n - i - 1) * sizeof o->p[0]);
    o->n--;
}

static void obj_clear(struct obj *o) {
    for (int i = 0; i < o->n; i++) {
        free(o->p[i].k);
        free(o->p[i].v);
    }
    free(o->p);
    o->p = NULL;
    o->n = o->cap = 0;
}

static void obj_copy(struct obj *dst, const struct obj *src) {
    for (int i = 0; i < src->n; i++) obj_set(dst, src->p[i].k, src->p[i].kl, src->p[i].v, src->p[i].vl);
}

static struct obj *live_obj(int h) {
    for (int i = 0; i < nobjs; i++)
        if (objs[i].handle == h) return &objs[i];
    return NULL;
}

/* What the library may read: a live object or MPI_INFO_ENV. */
static struct obj *lookup_read(int h) { return h == ENV_INT ? &env_model : live_obj(h); }
/* What it may change: a live object, never MPI_INFO_ENV. */
static struct obj *lookup_write(int h) { return h == ENV_INT ? NULL : live_obj(h); }

/* Handles freed recently, by hash of the value: a value freed fewer than 1,000,000 creations ago
 * must not be handed out again (docs/reference.md, "Handles"). Later frees overwrite a bucket, so
 * this can miss a reissue but never reports one that did not happen. */
#define FREED_BITS 16
static struct {
    int h;
    unsigned long long at;
} freed_tab[1u << FREED_BITS];

static unsigned freed_hash(int h) { return ((uint32_t)h * 2654435761u) >> (32 - FREED_BITS); }

/* A handle a create/dup/create_env call just returned. */
static void check_new_handle(int h, const char *what) {
    EXPECT(h >= 4096, "%s returned handle %d: user handles are positive, >= 4096, never 0, "
           "MPI_INFO_NULL or MPI_INFO_ENV (docs/reference.md, \"Handles\")", what, h);
    EXPECT(live_obj(h) == NULL, "%s returned handle %d, which is already a live object", what, h);
    for (int i = 0; i < nstale; i++)
        EXPECT(stale[i] != h,
               "%s returned handle %d, freed earlier by this input (docs/reference.md, \"Handles\")",
               what, h);
    unsigned b = freed_hash(h);
    EXPECT(!(freed_tab[b].h == h && freed_tab[b].at + 1000000 > creations),
           "%s returned handle %d, freed only %llu creations ago (docs/reference.md, \"Handles\": "
           "not within 1,000,000; this check spans inputs, so the input alone may not reproduce it)",
           what, h, creations - freed_tab[b].at);
    creations++;
}

static struct obj *add_obj(int h) {
    struct obj *o = &objs[nobjs++];
    o->handle = h;
    o->n = o->cap = 0;
    o->p = NULL;
    return o;
}

static void kill_obj(struct obj *o) {
    int h = o->handle;
    obj_clear(o);
    *o = objs[--nobjs];
    if (nstale < MAX_STALE) stale[nstale++] = h;
    else stale[h & (MAX_STALE - 1)] = h;
    unsigned b = freed_hash(h);
    freed_tab[b].h = h;
    freed_tab[b].at = creations;
}

/* ---------------------------------------------------------------- MPI_INFO_ENV's model */

static char *g_host, *g_arch, *g_wdir; /* NULL when unknown */

/* The pairs docs/reference.md lists ("MPI_INFO_ENV and MPI_Info_create_env"), for a command line
 * of argc strings. */
static void build_env_model(struct obj *o, int argc, const struct str *argv) {
    static char joined[MAX_ARGC * 4096 + 65536];
    if (argc >= 1 && argv[0].len <= VAL_MAX) obj_set(o, "command", 7, argv[0].p, argv[0].len);
    if (argc >= 2) {
        size_t total = (size_t)(argc - 2);
        for (int i = 1; i < argc; i++) total += argv[i].len;
        if (total <= VAL_MAX) {
            size_t at = 0;
            for (int i = 1; i < argc; i++) {
                if (i > 1) joined[at++] = ' ';
                memcpy(joined + at, argv[i].p, argv[i].len);
                at += argv[i].len;
            }
            obj_set(o, "argv", 4, joined, at);
        }
    }
    obj_set(o, "maxprocs", 8, "1", 1);
    obj_set(o, "soft", 4, "1", 1);
    if (g_host && *g_host && strlen(g_host) <= VAL_MAX) obj_set(o, "host", 4, g_host, strlen(g_host));
    if (g_arch && *g_arch && strlen(g_arch) <= VAL_MAX) obj_set(o, "arch", 4, g_arch, strlen(g_arch));
    if (g_wdir && strlen(g_wdir) <= VAL_MAX) obj_set(o, "wdir", 4, g_wdir, strlen(g_wdir));
    obj_set(o, "thread_level", 12, "MPI_THREAD_MULTIPLE", 19);
}

/* ---------------------------------------------------------------- checking an object */

/* The i-th pair of o, as nthkey, get_valuelen and get see it. */
static void verify_pair(const struct api *A, const struct obj *o, int i, int tight) {
    const struct pair *p = &o->p[i];
    size_t ksize = tight ? p->kl + 1 : MPI_MAX_INFO_KEY;
    char *kb = obuf(R_VKEY, ksize);
    int rc = A->get_nthkey(H(o->handle), i, kb);
    EXPECT(rc == MPI_SUCCESS, "%s_Info_get_nthkey(%d, %d) returned %d, expected 0 (nkeys %d)",
           A->prefix, o->handle, i, rc, o->n);
    check_buf("get_nthkey", kb, ksize, p->k, p->kl + 1);

    /* Every other pair is looked up in the buffer get_nthkey just wrote, as a program that
     * lists an object does (the library remembers that buffer), the others in a copy. */
    struct str key = {kb, p->kl, 1};
    if (i % 2) {
        key = place(R_VKEYIN, p->k, p->kl, 1);
    } else {
        g_listed = kb;
        g_listed_end = (const char *)reg_end[R_VKEY];
    }
    int *vl = iout(R_VI0, INT_SENT), *flag = iout(R_VI1, INT_SENT);
    rc = A->get_valuelen(H(o->handle), key.p, vl, flag);
    EXPECT(rc == MPI_SUCCESS && *flag == 1 && *vl == (int)p->vl,
           "%s_Info_get_valuelen(%d, key #%d) gave rc %d flag %d valuelen %d, expected 0, 1, %zu",
           A->prefix, o->handle, i, rc, *flag, *vl, p->vl);

    char *vb = obuf(R_VVAL, p->vl + 1);
    flag = iout(R_VI1, INT_SENT);
    rc = A->get(H(o->handle), key.p, (int)p->vl, vb, flag);
    EXPECT(rc == MPI_SUCCESS && *flag == 1, "%s_Info_get(%d, key #%d, %zu) gave rc %d flag %d",
           A->prefix, o->handle, i, p->vl, rc, *flag);
    check_buf("get (checking the object)", vb, p->vl + 1, p->v, p->vl + 1);
}

/* The object holds exactly what the model says: nkeys, then every pair (full) or the first,
 * the last and `touched` (light). */
static void verify_obj(const struct api *A, const struct obj *o, int touched, int full) {
    int *nk = iout(R_VI0, INT_SENT);
    int rc = A->get_nkeys(H(o->handle), nk);
    EXPECT(rc == MPI_SUCCESS && *nk == o->n, "%s_Info_get_nkeys(%d) gave rc %d nkeys %d, expected 0 and %d",
           A->prefix, o->handle, rc, *nk, o->n);
    if (full) {
        for (int i = 0; i < o->n; i++) verify_pair(A, o, i, i & 1);
    } else if (o->n > 0) {
        verify_pair(A, o, 0, 1);
        if (o->n > 1) verify_pair(A, o, o->n - 1, 0);
        if (touched > 0 && touched < o->n - 1) verify_pair(A, o, touched, g_call & 1);
    }
}

/* After a call naming handle h: the object is unchanged / changed exactly as the model says. */
static void after(const struct api *A, int h, int touched) {
    const struct obj *o = lookup_read(h);
    if (o) verify_obj(A, o, touched, o->n <= 4);
}

/* ---------------------------------------------------------------- argument generators */

static const int SPECIAL_HANDLES[] = {
    NULL_INT, ENV_INT, 0, -1, 1, INT_MIN, INT_MAX, 4095, 4096, 303, 306,
    1 << 20, (1 << 20) + 1, (1 << 20) - 1, (2047 << 20) | 0xFFFFF, 2047 << 20, 1 << 30,
    -(1 << 20), -304, -305, 0x7FF00000, 2, 255, (1 << 20) | 4096,
};
#define NSPECIAL ((unsigned)(sizeof SPECIAL_HANDLES / sizeof SPECIAL_HANDLES[0]))

/* Any int as a handle: a handle variable, a live object, a constant, a freed handle, a near
 * miss of a live or freed one, or four raw bytes. */
static int gen_handle(struct rd *r) {
    unsigned b = u8(r);
    if (b < 0x60) return slots[b % NSLOTS];
    if (b < 0x80) return nobjs ? objs[b % (unsigned)nobjs].handle : slots[b % NSLOTS];
    if (b < 0x98) return SPECIAL_HANDLES[(b - 0x80) % NSPECIAL];
    if (b < 0xB0) return nstale ? stale[b % (unsigned)nstale] : NULL_INT;
    if (b < 0xD8) {
        unsigned s = u8(r), m = u8(r);
        int base = (s & 1) && nstale ? stale[(s >> 1) % (unsigned)nstale]
                 : nobjs ? objs[(s >> 1) % (unsigned)nobjs].handle : slots[s % NSLOTS];
        uint32_t u = (uint32_t)base;
        switch (m % 11) {
        case 0: u += 1; break;
        case 1: u -= 1; break;
        case 2: u ^= 1u << 20; break;
        case 3: u += 1u << 20; break;
        case 4: u -= 1u << 20; break;
        case 5: u ^= 1; break;
        case 6: u |= 0x80000000u; break;
        case 7: u ^= 0x7FF00000u; break;
        case 8: u &= 0xFFFFFu; break;
        case 9: u = (u & 0xFFFFFu) | (2047u << 20); break;
        default: u ^= 1u << ((m >> 4) % 31); break;
        }
        return i32_of(u);
    }
    return i32_of(u32(r));
}

/* A length or index near `base` or near a limit. */
static int gen_int(struct rd *r, long long base) {
    unsigned b = u8(r);
    switch (b % 24) {
    case 0: return -1;
    case 1: return INT_MIN;
    case 2: return 0;
    case 3: return 1;
    case 4: return clamp_int(base - 1);
    case 5: case 6: case 22: return clamp_int(base);
    case 7: return clamp_int(base + 1);
    case 8: return clamp_int(base + 2);
    case 9: return 254;
    case 10: return 255;
    case 11: return 256;
    case 12: return 1022;
    case 13: return 1023;
    case 14: return 1024;
    case 15: return 1025;
    case 16: return INT_MAX;
    case 17: return INT_MAX - 1;
    case 18: return (int)u8(r);
    case 19: return -(int)u8(r) - 2;
    case 20: return i32_of(u32(r));
    case 21: return clamp_int(base / 2);
    default: return clamp_int(base > 0 ? (long long)(u8(r) % (unsigned long long)base) : 0);
    }
}

static unsigned char scratch[REG_SIZE];

static const char *const KEY_DICT[] = {
    "a", "b", "c", "key", "Key", "KEY", "a b", " a", "a ", "\xff\xfe", "striping_factor",
    "cb_nodes", "command", "wdir", "host", "thread_level", "x=y", "\t", "f0", "f1", "argv", "soft",
};
#define NKEY_DICT ((unsigned)(sizeof KEY_DICT / sizeof KEY_DICT[0]))
static const char *const VAL_DICT[] = {
    "1", "true", "false", " spaced ", "\xff\xfe", "MPI_THREAD_MULTIPLE", "a,b,c", "-7", "x", "0", "y",
};
#define NVAL_DICT ((unsigned)(sizeof VAL_DICT / sizeof VAL_DICT[0]))
static const size_t LONG_KEY_LENS[] = {1, 2, 3, 127, 128, 253, 254, 255, 256, 257, 511, 1023, 1024, 1025};
static const size_t UNTERM_KEY_LENS[] = {256, 257, 300, 1024, 1025, 2000};
static const size_t LONG_VAL_LENS[] = {0, 1, 2, 255, 256, 511, 512, 1021, 1022, 1023, 1024, 1025, 2047, 2048};
static const size_t UNTERM_VAL_LENS[] = {1024, 1025, 1100, 2000, 4000, 8000};
#define N_OF(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* An existing pair of some object (a live one or MPI_INFO_ENV), or NULL if there is none. */
static const struct pair *pick_pair(struct rd *r) {
    unsigned o = u8(r) % (unsigned)(nobjs + 1);
    const struct obj *ob = o == (unsigned)nobjs ? &env_model : &objs[o];
    unsigned i = u8(r);
    if (ob->n == 0) return NULL;
    return &ob->p[i % (unsigned)ob->n];
}

/* The keys OP_FILL sets: "f" and a number. */
static size_t fill_key(char *out, unsigned i) { return (size_t)sprintf(out, "f%u", i); }

static struct str gen_key(struct rd *r, int reg) {
    unsigned b = u8(r);
    const struct pair *p;
    switch (b % 13) {
    case 0: return null_str();
    case 1: return place(reg, "", 0, 1);
    case 2: case 3: {
        const char *k = KEY_DICT[u8(r) % NKEY_DICT];
        return place(reg, k, strlen(k), 1);
    }
    case 11: /* the buffer get_nthkey last wrote, as it is now, where reading it is safe */
        if (g_listed) {
            size_t room = (size_t)(g_listed_end - g_listed);
            const char *nul = (const char *)memchr(g_listed, 0, room);
            if (nul || room > MPI_MAX_INFO_KEY) {
                struct str s = {g_listed, nul ? (size_t)(nul - g_listed) : room, nul != NULL};
                return s;
            }
        }
        /* fall through */
    case 4: case 5:
        if ((p = pick_pair(r))) return place(reg, p->k, p->kl, 1);
        return place(reg, "key", 3, 1);
    case 6: { /* a near miss of an existing key */
        size_t n = 1;
        scratch[0] = 'k';
        if ((p = pick_pair(r))) {
            memcpy(scratch, p->k, p->kl);
            n = p->kl;
        }
        unsigned m = u8(r);
        switch (m % 6) {
        case 0: scratch[n++] = (unsigned char)('a' + (m >> 3) % 4); break;
        case 1: n--; break;
        case 2: scratch[n - 1] ^= (unsigned char)(1u << ((m >> 3) % 8)); break;
        case 3: scratch[0] ^= 0x20; break;
        case 4: memmove(scratch + 1, scratch, n++); scratch[0] = ' '; break;
        default: scratch[n++] = ' '; break;
        }
        return place(reg, scratch, n, 1);
    }
    case 7: { /* a run of one character, at or around the limits */
        unsigned a = u8(r), c = u8(r);
        size_t n = LONG_KEY_LENS[a % N_OF(LONG_KEY_LENS)];
        memset(scratch, 'a' + (int)(c % 4), n);
        if (c & 0x10) scratch[n - 1] = (unsigned char)('a' + (c >> 5) % 4);
        return place(reg, scratch, n, 1);
    }
    case 8: { /* no NUL at all: it ends at the guard page */
        unsigned a = u8(r);
        size_t n = UNTERM_KEY_LENS[a % N_OF(UNTERM_KEY_LENS)];
        memset(scratch, 'a' + (int)(a >> 5), n);
        return place(reg, scratch, n, 0);
    }
    case 9: { /* raw bytes from the input (a NUL among them ends the key early) */
        size_t n = u8(r);
        for (size_t i = 0; i < n; i++) scratch[i] = (unsigned char)u8(r);
        return place(reg, scratch, n, 1);
    }
    case 10: {
        char k[16];
        return place(reg, k, fill_key(k, u8(r) % 64), 1);
    }
    default: {
        const char *k = KEY_DICT[u8(r) % 4];
        return place(reg, k, strlen(k), 1);
    }
    }
}

static struct str gen_val(struct rd *r, int reg) {
    unsigned b = u8(r);
    const struct pair *p;
    switch (b % 12) {
    case 0: return null_str();
    case 1: return place(reg, "", 0, 1);
    case 2: case 3: {
        const char *v = VAL_DICT[u8(r) % NVAL_DICT];
        return place(reg, v, strlen(v), 1);
    }
    case 4:
        if ((p = pick_pair(r))) return place(reg, p->v, p->vl, 1);
        return place(reg, "v", 1, 1);
    case 5: { /* same length as an existing value, other bytes (a replacement in place) */
        size_t n = 3;
        memcpy(scratch, "abc", 3);
        if ((p = pick_pair(r))) {
            memcpy(scratch, p->v, p->vl);
            n = p->vl;
        }
        unsigned m = u8(r);
        if (n) scratch[m % n] = (unsigned char)(scratch[m % n] == 'Z' ? 'Y' : 'Z');
        return place(reg, scratch, n, 1);
    }
    case 6: { /* one byte more or less than an existing value */
        size_t n = 0;
        if ((p = pick_pair(r))) {
            memcpy(scratch, p->v, p->vl);
            n = p->vl;
        }
        if (u8(r) & 1) scratch[n++] = 'w';
        else if (n) n--;
        return place(reg, scratch, n, 1);
    }
    case 7: case 8: {
        unsigned a = u8(r), c = u8(r);
        size_t n = LONG_VAL_LENS[a % N_OF(LONG_VAL_LENS)];
        memset(scratch, 'A' + (int)(c % 4), n);
        if (n && (c & 0x10)) scratch[n - 1] = (unsigned char)('A' + (c >> 5) % 4);
        return place(reg, scratch, n, 1);
    }
    case 9: {
        unsigned a = u8(r);
        size_t n = UNTERM_VAL_LENS[a % N_OF(UNTERM_VAL_LENS)];
        memset(scratch, 'A' + (int)(a >> 5), n);
        return place(reg, scratch, n, 0);
    }
    case 10: {
        size_t n = u8(r);
        for (size_t i = 0; i < n; i++) scratch[i] = (unsigned char)u8(r);
        return place(reg, scratch, n, 1);
    }
    default: {
        char v[24];
        return place(reg, v, (size_t)sprintf(v, "%u", u8(r)), 1);
    }
    }
}

/* Which output pointers of a call are NULL: with one byte, a quarter of the calls have some. */
static unsigned gen_nulls(struct rd *r) {
    unsigned f = u8(r);
    return f >= 0xC0 ? (f & 0x3Fu) | 0x40u : 0u;
}
#define IS_NULL(mask, k) (((mask) >> (k)) & 1u)

static const int KNOWN_CODES[] = {MPI_SUCCESS, MPI_ERR_ARG, MPI_ERR_OTHER, MPI_ERR_INTERN,
                                  MPI_ERR_INFO_KEY, MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE,
                                  MPI_ERR_INFO, MPI_ERR_NO_MEM};
static const int UNKNOWN_CODES[] = {-1, 1, 12, 14, 15, 18, 30, 35, 38, 40, INT_MIN, INT_MAX,
                                    NULL_INT, ENV_INT, 1000, 4096};

static int known_code(int c) {
    for (unsigned i = 0; i < N_OF(KNOWN_CODES); i++)
        if (KNOWN_CODES[i] == c) return 1;
    return 0;
}

static int gen_code(struct rd *r) {
    unsigned b = u8(r);
    if (b < 0x90) return KNOWN_CODES[b % N_OF(KNOWN_CODES)];
    if (b < 0xF0) return UNKNOWN_CODES[b % N_OF(UNKNOWN_CODES)];
    if (b < 0xF8) return (int)u8(r);
    return i32_of(u32(r));
}

/* ---------------------------------------------------------------- the calls */

enum op {
    OP_CREATE, OP_SET, OP_DELETE, OP_GET, OP_VALUELEN, OP_GET_STRING, OP_NKEYS, OP_NTHKEY,
    OP_DUP, OP_FREE, OP_CREATE_ENV, OP_CONVERT, OP_ERROR_STRING, OP_ERROR_CLASS, OP_FILL, OP_SET2,
};

static char d1[160], d2[160];

static void op_create(const struct api *A, struct rd *r) {
    unsigned b = u8(r);
    int null = (b & 7) == 7;
    int slot = (int)((b >> 3) % NSLOTS);
    if (nobjs >= MAX_OBJS) {
        log_line("#%d create skipped (%d live objects)", g_call, nobjs);
        return;
    }
    log_line("#%d %s_Info_create(%s) -> slot %d", g_call, A->prefix, null ? "NULL" : "&h", slot);
    MPI_Info *out = null ? NULL : hout(R_I0, H(INT_SENT));
    int rc = A->create(out);
    if (null) {
        EXPECT(rc == MPI_ERR_ARG, "create(NULL) returned %d, expected MPI_ERR_ARG (13)", rc);
        return;
    }
    EXPECT(rc == MPI_SUCCESS, "create returned %d, expected 0", rc);
    check_new_handle(I(*out), "create");
    struct obj *o = add_obj(I(*out));
    slots[slot] = I(*out);
    verify_obj(A, o, -1, 1);
}

/* One MPI_Info_set call, checked; the model follows it. Returns the index set, or -1. */
static int do_set(const struct api *A, int h, struct str k, struct str v) {
    struct obj *o = lookup_write(h);
    int exp = !o ? MPI_ERR_INFO : !key_ok(k) ? MPI_ERR_INFO_KEY : !val_ok(v) ? MPI_ERR_INFO_VALUE
            : MPI_SUCCESS;
    int rc = A->set(H(h), k.p, v.p);
    EXPECT(rc == exp, "%s_Info_set(%d, %s, %s) returned %d, expected %d", A->prefix, h,
           desc(k, d1, sizeof d1), desc(v, d2, sizeof d2), rc, exp);
    if (rc != MPI_SUCCESS) return -1;
    return obj_set(o, k.p, k.len, v.p, v.len);
}

static void op_set(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    struct str k = gen_key(r, R_KEY), v = gen_val(r, R_VAL);
    log_line("#%d %s_Info_set(%d, %s, %s)", g_call, A->prefix, h, desc(k, d1, sizeof d1), desc(v, d2, sizeof d2));
    int i = do_set(A, h, k, v);
    after(A, h, i);
}

static void op_fill(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    unsigned count = u8(r) % 24 + 1, first = u8(r);
    log_line("#%d %s_Info_set x%u (%d, \"f%u\".., values of 0-63 'v's)", g_call, A->prefix, count, h, first % 64);
    struct obj *o = lookup_write(h);
    int last = -1;
    for (unsigned i = 0; i < count && !(o && o->n >= FILL_LIMIT); i++) {
        char k[16];
        size_t kl = fill_key(k, (first + i) % 64), vl = ((first + i) * 37u) % 64u;
        memset(scratch, 'v', vl);
        scratch[0] = (unsigned char)('0' + i % 10);
        last = do_set(A, h, place(R_KEY, k, kl, 1), place(R_VAL, scratch, vl, 1));
    }
    after(A, h, last);
}

static void op_delete(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    struct str k = gen_key(r, R_KEY);
    log_line("#%d %s_Info_delete(%d, %s)", g_call, A->prefix, h, desc(k, d1, sizeof d1));
    struct obj *o = lookup_write(h);
    int i = o && key_ok(k) ? obj_find(o, k.p, k.len) : -1;
    int exp = !o ? MPI_ERR_INFO : !key_ok(k) ? MPI_ERR_INFO_KEY : i < 0 ? MPI_ERR_INFO_NOKEY : MPI_SUCCESS;
    int rc = A->del(H(h), k.p);
    EXPECT(rc == exp, "%s_Info_delete returned %d, expected %d", A->prefix, rc, exp);
    if (rc == MPI_SUCCESS) obj_del(o, i);
    after(A, h, i);
    if (rc == MPI_SUCCESS && i > 0) verify_pair(A, o, i - 1, 0);
}

static void op_get(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    struct str k = gen_key(r, R_KEY);
    struct obj *o = lookup_read(h);
    int i = o && key_ok(k) ? obj_find(o, k.p, k.len) : -1;
    int vlen = gen_int(r, i >= 0 ? (long long)o->p[i].vl : 8);
    unsigned nulls = gen_nulls(r);
    size_t size = vlen < 0 ? MPI_MAX_INFO_VAL : (size_t)(vlen < 4095 ? vlen : 4095) + 1;
    char *buf = IS_NULL(nulls, 0) ? NULL : obuf(R_OUT, size);
    int *flag = IS_NULL(nulls, 1) ? NULL : iout(R_I0, INT_SENT);
    log_line("#%d %s_Info_get(%d, %s, %d, %s, %s)", g_call, A->prefix, h, desc(k, d1, sizeof d1),
             vlen, buf ? "buf" : "NULL", flag ? "&flag" : "NULL");
    int exp = !o ? MPI_ERR_INFO : !key_ok(k) ? MPI_ERR_INFO_KEY
            : (vlen < 0 || !buf || !flag) ? MPI_ERR_ARG : MPI_SUCCESS;
    int rc = A->get(H(h), k.p, vlen, buf, flag);
    EXPECT(rc == exp, "%s_Info_get returned %d, expected %d", A->prefix, rc, exp);
    if (rc == MPI_SUCCESS && i >= 0) {
        EXPECT(*flag == 1, "get: flag is %d, expected 1 (the key is there)", *flag);
        size_t n = o->p[i].vl < (size_t)vlen ? o->p[i].vl : (size_t)vlen;
        memcpy(scratch, o->p[i].v, n);
        scratch[n] = 0;
        check_buf("get", buf, size, (const char *)scratch, n + 1);
    } else {
        if (flag) EXPECT(*flag == (rc == MPI_SUCCESS ? 0 : INT_SENT),
                         "get: flag is %d, expected %d (rc %d)", *flag, rc == MPI_SUCCESS ? 0 : INT_SENT, rc);
        if (buf) check_buf("get (nothing may be written)", buf, size, "", 0);
    }
    after(A, h, i);
}

static void op_valuelen(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    struct str k = gen_key(r, R_KEY);
    unsigned nulls = gen_nulls(r);
    int *vl = IS_NULL(nulls, 0) ? NULL : iout(R_I0, INT_SENT);
    int *flag = IS_NULL(nulls, 1) ? NULL : iout(R_I1, INT_SENT);
    log_line("#%d %s_Info_get_valuelen(%d, %s, %s, %s)", g_call, A->prefix, h, desc(k, d1, sizeof d1),
             vl ? "&len" : "NULL", flag ? "&flag" : "NULL");
    struct obj *o = lookup_read(h);
    int i = o && key_ok(k) ? obj_find(o, k.p, k.len) : -1;
    int exp = !o ? MPI_ERR_INFO : !key_ok(k) ? MPI_ERR_INFO_KEY : (!vl || !flag) ? MPI_ERR_ARG : MPI_SUCCESS;
    int rc = A->get_valuelen(H(h), k.p, vl, flag);
    EXPECT(rc == exp, "%s_Info_get_valuelen returned %d, expected %d", A->prefix, rc, exp);
    int ef = rc != MPI_SUCCESS ? INT_SENT : i >= 0 ? 1 : 0;
    int ev = rc == MPI_SUCCESS && i >= 0 ? (int)o->p[i].vl : INT_SENT;
    if (flag) EXPECT(*flag == ef, "get_valuelen: flag is %d, expected %d", *flag, ef);
    if (vl) EXPECT(*vl == ev, "get_valuelen: *valuelen is %d, expected %d (0x%x: untouched)", *vl, ev, INT_SENT);
    after(A, h, i);
}

static void op_get_string(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    struct str k = gen_key(r, R_KEY);
    struct obj *o = lookup_read(h);
    int i = o && key_ok(k) ? obj_find(o, k.p, k.len) : -1;
    int blen = gen_int(r, i >= 0 ? (long long)o->p[i].vl + 1 : 8);
    unsigned nulls = gen_nulls(r);
    size_t size = blen < 0 ? MPI_MAX_INFO_VAL : (size_t)(blen < 4096 ? blen : 4096);
    int *bl = IS_NULL(nulls, 0) ? NULL : iout(R_I0, blen);
    char *buf = IS_NULL(nulls, 1) ? NULL : obuf(R_OUT, size); /* size 0: ends at the guard page */
    int *flag = IS_NULL(nulls, 2) ? NULL : iout(R_I1, INT_SENT);
    log_line("#%d %s_Info_get_string(%d, %s, %s%d, %s, %s)", g_call, A->prefix, h, desc(k, d1, sizeof d1),
             bl ? "&" : "NULL, ignored ", blen, buf ? "buf" : "NULL", flag ? "&flag" : "NULL");
    int exp = !o ? MPI_ERR_INFO : !key_ok(k) ? MPI_ERR_INFO_KEY
            : (!bl || blen < 0 || (blen > 0 && !buf) || !flag) ? MPI_ERR_ARG : MPI_SUCCESS;
    int rc = A->get_string(H(h), k.p, bl, buf, flag);
    EXPECT(rc == exp, "%s_Info_get_string returned %d, expected %d", A->prefix, rc, exp);
    if (rc == MPI_SUCCESS && i >= 0) {
        EXPECT(*flag == 1, "get_string: flag is %d, expected 1", *flag);
        EXPECT(*bl == (int)o->p[i].vl + 1, "get_string: *buflen is %d, expected %zu (length + 1)", *bl, o->p[i].vl + 1);
        if (blen > 0) {
            size_t n = o->p[i].vl < (size_t)blen - 1 ? o->p[i].vl : (size_t)blen - 1;
            memcpy(scratch, o->p[i].v, n);
            scratch[n] = 0;
            check_buf("get_string", buf, size, (const char *)scratch, n + 1);
        } else if (buf) {
            check_buf("get_string with *buflen 0 (nothing may be written)", buf, size, "", 0);
        }
    } else {
        if (flag) EXPECT(*flag == (rc == MPI_SUCCESS ? 0 : INT_SENT), "get_string: flag is %d (rc %d)", *flag, rc);
        if (bl) EXPECT(*bl == blen, "get_string: *buflen is %d, expected it untouched (%d)", *bl, blen);
        if (buf) check_buf("get_string (nothing may be written)", buf, size, "", 0);
    }
    after(A, h, i);
}

static void op_nkeys(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    unsigned nulls = gen_nulls(r);
    int *nk = IS_NULL(nulls, 0) ? NULL : iout(R_I0, INT_SENT);
    log_line("#%d %s_Info_get_nkeys(%d, %s)", g_call, A->prefix, h, nk ? "&n" : "NULL");
    struct obj *o = lookup_read(h);
    int exp = !o ? MPI_ERR_INFO : !nk ? MPI_ERR_ARG : MPI_SUCCESS;
    int rc = A->get_nkeys(H(h), nk);
    EXPECT(rc == exp, "%s_Info_get_nkeys returned %d, expected %d", A->prefix, rc, exp);
    if (nk) EXPECT(*nk == (rc == MPI_SUCCESS ? o->n : INT_SENT), "get_nkeys: *nkeys is %d, expected %d",
                   *nk, rc == MPI_SUCCESS ? o->n : INT_SENT);
    unsigned full = u8(r);
    if (o && (full & 1)) verify_obj(A, o, -1, 1); /* now and then, the whole object */
}

static void op_nthkey(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    struct obj *o = lookup_read(h);
    int n = gen_int(r, o ? o->n : 0);
    unsigned b = u8(r);
    int valid = o && n >= 0 && n < o->n;
    /* the buffer: MPI_MAX_INFO_KEY bytes, exactly the key's length + 1, one more, or NULL */
    size_t size = (b % 4 == 1 && valid) ? o->p[n].kl + 1 : (b % 4 == 2) ? MPI_MAX_INFO_KEY + 1 : MPI_MAX_INFO_KEY;
    /* R_LIST, not R_OUT: gen_key may look a key up in this buffer later, as the output of the
     * call before, and the calls of the lookup write their outputs to R_OUT. */
    char *buf = b % 4 == 3 ? NULL : obuf(R_LIST, size);
    if (buf) log_line("#%d %s_Info_get_nthkey(%d, %d, buf[%zu])", g_call, A->prefix, h, n, size);
    else log_line("#%d %s_Info_get_nthkey(%d, %d, NULL)", g_call, A->prefix, h, n);
    int exp = !o ? MPI_ERR_INFO : (n < 0 || !buf || n >= o->n) ? MPI_ERR_ARG : MPI_SUCCESS;
    int rc = A->get_nthkey(H(h), n, buf);
    EXPECT(rc == exp, "%s_Info_get_nthkey returned %d, expected %d", A->prefix, rc, exp);
    if (buf) {
        if (rc == MPI_SUCCESS) {
            check_buf("get_nthkey", buf, size, o->p[n].k, o->p[n].kl + 1);
            g_listed = buf;
            g_listed_end = (const char *)reg_end[R_LIST];
        } else {
            check_buf("get_nthkey (nothing may be written)", buf, size, "", 0);
        }
    }
    after(A, h, valid ? n : -1);
}

static void op_dup(const struct api *A, struct rd *r) {
    int h = gen_handle(r);
    unsigned b = u8(r);
    int null = (b & 7) == 7, slot = (int)((b >> 3) % NSLOTS);
    if (nobjs >= MAX_OBJS) {
        log_line("#%d dup skipped (%d live objects)", g_call, nobjs);
        return;
    }
    MPI_Info *out = null ? NULL : hout(R_I0, H(INT_SENT));
    log_line("#%d %s_Info_dup(%d, %s) -> slot %d", g_call, A->prefix, h, out ? "&new" : "NULL", slot);
    struct obj *o = lookup_read(h);
    int exp = !o ? MPI_ERR_INFO : null ? MPI_ERR_ARG : MPI_SUCCESS;
    int rc = A->dup(H(h), out);
    EXPECT(rc == exp, "%s_Info_dup returned %d, expected %d", A->prefix, rc, exp);
    if (rc != MPI_SUCCESS) {
        if (out) EXPECT(*out == H(INT_SENT), "dup failed but wrote %d to *newinfo", I(*out));
        after(A, h, -1);
        return;
    }
    check_new_handle(I(*out), "dup");
    struct obj *d = add_obj(I(*out)); /* appends: `o` stays where it is */
    obj_copy(d, o);
    slots[slot] = I(*out);
    verify_obj(A, d, -1, d->n <= 16);
    after(A, h, -1);
}

static void op_free(const struct api *A, struct rd *r) {
    unsigned b = u8(r);
    int mode = (int)(b % 8), slot = (int)((b >> 3) % NSLOTS);
    int h = mode <= 4 ? slots[slot] : mode <= 6 ? gen_handle(r) : 0;
    MPI_Info *p = mode == 7 ? NULL : hout(R_I0, H(h));
    if (mode <= 4) log_line("#%d %s_Info_free(&slot %d = %d)", g_call, A->prefix, slot, h);
    else if (p) log_line("#%d %s_Info_free(&%d)", g_call, A->prefix, h);
    else log_line("#%d %s_Info_free(NULL)", g_call, A->prefix);
    struct obj *o = p ? lookup_write(h) : NULL;
    int exp = !p ? MPI_ERR_ARG : !o ? MPI_ERR_INFO : MPI_SUCCESS;
    int rc = A->free_(p);
    EXPECT(rc == exp, "%s_Info_free returned %d, expected %d", A->prefix, rc, exp);
    if (rc != MPI_SUCCESS) {
        if (p) EXPECT(*p == H(h), "free failed but changed *info from %d to %d", h, I(*p));
        after(A, h, -1);
        return;
    }
    EXPECT(*p == MPI_INFO_NULL, "free: *info is %d, expected MPI_INFO_NULL", I(*p));
    kill_obj(o);
    if (mode <= 4) slots[slot] = NULL_INT;
    int *nk = iout(R_I0, INT_SENT);
    rc = A->get_nkeys(H(h), nk);
    EXPECT(rc == MPI_ERR_INFO && *nk == INT_SENT, "get_nkeys on the freed handle %d gave %d (nkeys %d)", h, rc, *nk);
}

static void op_create_env(const struct api *A, struct rd *r) {
    static const int ARGCS[] = {0, 1, 1, 2, 2, 3, 4, 5, -1, INT_MIN, -2, 0};
    unsigned b = u8(r), a = u8(r);
    int argc = ARGCS[b % N_OF(ARGCS)];
    int argv_null = (a & 7) == 7, out_null = ((a >> 3) & 7) == 7, slot = (int)((a >> 6) % NSLOTS);
    struct str args[MAX_ARGC];
    int n = argc > 0 ? argc : 0, elem_null = 0;
    char **argv = NULL;
    if (!argv_null) {
        /* exactly argc pointers, ending at the guard page: argv[argc] is not readable */
        argv = (char **)(void *)(reg_end[R_ARGV] - (size_t)n * sizeof(char *));
        for (int i = 0; i < n; i++) {
            args[i] = gen_val(r, R_ARG0 + i);
            argv[i] = (char *)(uintptr_t)args[i].p;
            elem_null |= args[i].p == NULL;
        }
    }
    MPI_Info *out = out_null ? NULL : hout(R_I0, H(INT_SENT));
    {
        char line[900];
        size_t o = (size_t)snprintf(line, sizeof line, "%s_Info_create_env(%d, ", A->prefix, argc);
        if (!argv) o += (size_t)snprintf(line + o, sizeof line - o, "NULL");
        for (int i = 0; argv && i < n; i++)
            o += (size_t)snprintf(line + o, sizeof line - o, "%s%s", i ? ", " : "{", desc(args[i], d1, sizeof d1));
        snprintf(line + o, sizeof line - o, "%s, %s)", argv ? (n ? "}" : "{}") : "", out ? "&new" : "NULL");
        log_line("#%d %s -> slot %d", g_call, line, slot);
    }
    int exp = argc < 0 ? MPI_ERR_ARG : (argc > 0 && !argv) ? MPI_ERR_ARG : elem_null ? MPI_ERR_ARG
            : !out ? MPI_ERR_ARG : MPI_SUCCESS;
    if (exp == MPI_SUCCESS && nobjs >= MAX_OBJS) {
        log_line("#%d create_env skipped (%d live objects)", g_call, nobjs);
        return;
    }
    int rc = A->create_env(argc, argv, out);
    EXPECT(rc == exp, "%s_Info_create_env returned %d, expected %d", A->prefix, rc, exp);
    if (rc != MPI_SUCCESS) {
        if (out) EXPECT(*out == H(INT_SENT), "create_env failed but wrote %d to *info", I(*out));
        return;
    }
    check_new_handle(I(*out), "create_env");
    struct obj *o = add_obj(I(*out));
    build_env_model(o, argc, args);
    slots[slot] = I(*out);
    verify_obj(A, o, -1, 1);
}

#ifdef MPI_INFO_TEST_ABI
/* toint gives the address of every handle that is an int's, -1 for any other (a negative int's
 * address has the high bits set); fromint gives the address that is a non-negative int, and for
 * a negative one a handle that names no object. c2f/f2c are toint/fromint here (the standard
 * ABI's mpi_fortran.h makes them macros for those). */
static void op_convert(const struct api *A, struct rd *r) {
    unsigned b = u8(r);
    int h = gen_handle(r);
    if (b % 2 == 0) {
        log_line("#%d %s_Info_toint(%d)", g_call, A->prefix, h);
        int got = A->toint(H(h));
        EXPECT(got == (h >= 0 ? h : -1), "%s_Info_toint(address %d) returned %d", A->prefix, h, got);
    } else {
        log_line("#%d %s_Info_fromint(%d)", g_call, A->prefix, h);
        MPI_Info got = A->fromint(h);
        if (h >= 0) {
            EXPECT(got == H(h), "%s_Info_fromint(%d) returned the address %p", A->prefix, h, (void *)got);
        } else {
            int *nk = iout(R_I0, INT_SENT);
            int rc = A->get_nkeys(got, nk);
            EXPECT(rc == MPI_ERR_INFO && *nk == INT_SENT, "%s_Info_fromint(%d) returned %p, an object "
                   "(get_nkeys gave %d)", A->prefix, h, (void *)got, rc);
        }
    }
}
#else
static void op_convert(const struct api *A, struct rd *r) {
    unsigned b = u8(r);
    int h = gen_handle(r), got;
    const char *name;
    switch (b % 4) {
    case 0: got = A->c2f(h); name = "c2f"; break;
    case 1: got = A->f2c(h); name = "f2c"; break;
    case 2: got = A->toint(h); name = "toint"; break;
    default: got = A->fromint(h); name = "fromint"; break;
    }
    log_line("#%d %s_Info_%s(%d)", g_call, A->prefix, name, h);
    EXPECT(got == h, "%s_Info_%s(%d) returned %d: conversions are the identity", A->prefix, name, h, got);
}
#endif

/* The first message seen for each known code: later calls must give the same one. */
static char err_msgs[64][MPI_MAX_ERROR_STRING];
static int err_lens[64];

static void op_error_string(const struct api *A, struct rd *r) {
    int code = gen_code(r);
    unsigned nulls = gen_nulls(r);
    char *buf = IS_NULL(nulls, 0) ? NULL : obuf(R_OUT, MPI_MAX_ERROR_STRING);
    int *len = IS_NULL(nulls, 1) ? NULL : iout(R_I0, INT_SENT);
    log_line("#%d %s_Error_string(%d, %s, %s)", g_call, A->prefix, code, buf ? "buf" : "NULL", len ? "&len" : "NULL");
    int exp = !known_code(code) || !buf || !len ? MPI_ERR_ARG : MPI_SUCCESS;
    int rc = A->error_string(code, buf, len);
    EXPECT(rc == exp, "%s_Error_string returned %d, expected %d", A->prefix, rc, exp);
    if (rc != MPI_SUCCESS) {
        if (len) EXPECT(*len == INT_SENT, "Error_string failed but wrote %d to *resultlen", *len);
        if (buf) check_buf("Error_string (nothing may be written)", buf, MPI_MAX_ERROR_STRING, "", 0);
        return;
    }
    EXPECT(*len >= 1 && *len <= MPI_MAX_ERROR_STRING - 1, "Error_string(%d): resultlen %d", code, *len);
    EXPECT(memchr(buf, 0, (size_t)*len) == NULL && buf[*len] == 0,
           "Error_string(%d): resultlen %d is not the message's length", code, *len);
    check_pre(buf, "Error_string");
    check_tail("Error_string", buf, MPI_MAX_ERROR_STRING, (size_t)*len + 1);
    if (err_lens[code] == 0) {
        memcpy(err_msgs[code], buf, (size_t)*len + 1);
        err_lens[code] = *len;
    } else {
        EXPECT(err_lens[code] == *len && memcmp(err_msgs[code], buf, (size_t)*len) == 0,
               "Error_string(%d) gave \"%s\" now and \"%s\" before", code, buf, err_msgs[code]);
    }
}

static void op_error_class(const struct api *A, struct rd *r) {
    int code = gen_code(r);
    unsigned nulls = gen_nulls(r);
    int *cls = IS_NULL(nulls, 0) ? NULL : iout(R_I0, INT_SENT);
    log_line("#%d %s_Error_class(%d, %s)", g_call, A->prefix, code, cls ? "&class" : "NULL");
    int exp = !known_code(code) || !cls ? MPI_ERR_ARG : MPI_SUCCESS;
    int rc = A->error_class(code, cls);
    EXPECT(rc == exp, "%s_Error_class returned %d, expected %d", A->prefix, rc, exp);
    if (cls) EXPECT(*cls == (rc == MPI_SUCCESS ? code : INT_SENT), "Error_class(%d): *class is %d", code, *cls);
}

/* ---------------------------------------------------------------- set-up and the entry point */

static char *read_file_all(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY);
    size_t cap = 4096, n = 0;
    char *buf = (char *)xmalloc(cap);
    if (fd >= 0) {
        for (;;) {
            if (n == cap) {
                cap *= 2;
                char *nb = (char *)realloc(buf, cap);
                if (!nb) abort();
                buf = nb;
            }
            ssize_t got = read(fd, buf + n, cap - n);
            if (got <= 0) break;
            n += (size_t)got;
        }
        close(fd);
    }
    *len = n;
    return buf;
}

/* The model of MPI_INFO_ENV: built from /proc/self/cmdline, gethostname, uname and getcwd as
 * docs/reference.md says ("MPI_INFO_ENV and MPI_Info_create_env"), then compared with what the
 * library shows (and used from then on). */
static void init_env(void) {
    static char host[4096], wdir[8192];
    struct utsname u;
    if (gethostname(host, sizeof host - 1) == 0) g_host = host;
    if (uname(&u) == 0) g_arch = dupbytes(u.machine, strlen(u.machine));
    if (getcwd(wdir, sizeof wdir)) g_wdir = wdir;

    size_t len;
    char *cmd = read_file_all("/proc/self/cmdline", &len);
    int argc = 0;
    struct str *args = (struct str *)xmalloc((len + 1) * sizeof *args);
    for (size_t at = 0; at < len;) {
        size_t l = strnlen(cmd + at, len - at);
        args[argc].p = cmd + at;
        args[argc].len = l;
        args[argc].terminated = 1;
        argc++;
        at += l + 1;
    }
    struct obj want = {ENV_INT, 0, 0, NULL};
    build_env_model(&want, argc, args);
    free(args);
    free(cmd);

    /* what the library shows, read with MPI_ calls only */
    int n = -1;
    int rc = MPI_Info_get_nkeys(MPI_INFO_ENV, &n);
    EXPECT(rc == MPI_SUCCESS && n >= 0, "MPI_Info_get_nkeys(MPI_INFO_ENV) gave %d, nkeys %d", rc, n);
    env_model.handle = ENV_INT;
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY], val[MPI_MAX_INFO_VAL];
        int flag = 0;
        rc = MPI_Info_get_nthkey(MPI_INFO_ENV, i, key);
        EXPECT(rc == MPI_SUCCESS && memchr(key, 0, sizeof key), "MPI_INFO_ENV: get_nthkey(%d) gave %d", i, rc);
        rc = MPI_Info_get(MPI_INFO_ENV, key, MPI_MAX_INFO_VAL - 1, val, &flag);
        EXPECT(rc == MPI_SUCCESS && flag == 1, "MPI_INFO_ENV: get(\"%s\") gave %d, flag %d", key, rc, flag);
        obj_set(&env_model, key, strlen(key), val, strlen(val));
    }
    if (env_model.n != want.n) {
        char have[256] = "", should[256] = "";
        for (int i = 0; i < env_model.n; i++)
            snprintf(have + strlen(have), sizeof have - strlen(have), " %s", env_model.p[i].k);
        for (int i = 0; i < want.n; i++)
            snprintf(should + strlen(should), sizeof should - strlen(should), " %s", want.p[i].k);
        EXPECT(env_model.n == want.n,
               "MPI_INFO_ENV has the keys%s; docs/reference.md gives%s for this process "
               "(%d arguments on its command line)", have, should, argc);
    }
    for (int i = 0; i < want.n; i++)
        EXPECT(strcmp(env_model.p[i].k, want.p[i].k) == 0 && env_model.p[i].vl == want.p[i].vl &&
                   memcmp(env_model.p[i].v, want.p[i].v, want.p[i].vl) == 0,
               "MPI_INFO_ENV pair %d is (%s, %.60s), docs/reference.md gives (%s, %.60s)", i,
               env_model.p[i].k, env_model.p[i].v, want.p[i].k, want.p[i].v);
    obj_clear(&want);
}

static int g_trace; /* INFO_FUZZ_TRACE set: print each input's calls to stderr */

static void init_once(void) {
    static int done;
    if (done) return;
    done = 1;
    g_trace = getenv("INFO_FUZZ_TRACE") != NULL;
    map_regions();
    g_call = -1;
    log_line("(start-up: reading MPI_INFO_ENV)");
#ifdef MPI_INFO_TEST_ABI
    EXPECT(H(NULL_INT) == MPI_INFO_NULL && H(ENV_INT) == MPI_INFO_ENV,
           "the harness's MPI_INFO_NULL and MPI_INFO_ENV (%d, %d) are not the header's", NULL_INT,
           ENV_INT);
#endif
    init_env();
}

static void finish_input(void) {
    g_call = MAX_CALLS; /* "the end of the input" in messages */
    log_line("end of input: every object checked in full, then freed");
    verify_obj(&APIS[0], &env_model, -1, 1);
    while (nobjs > 0) {
        struct obj *o = &objs[nobjs - 1];
        const struct api *A = &APIS[nobjs & 1];
        int h = o->handle;
        verify_obj(A, o, -1, 1);
        MPI_Info *p = hout(R_I0, H(h));
        int rc = A->free_(p);
        EXPECT(rc == MPI_SUCCESS && *p == MPI_INFO_NULL, "%s_Info_free(&%d) at the end gave %d, *info %d",
               A->prefix, h, rc, I(*p));
        kill_obj(o);
        int *nk = iout(R_I0, INT_SENT);
        rc = A->get_nkeys(H(h), nk);
        EXPECT(rc == MPI_ERR_INFO && *nk == INT_SENT, "get_nkeys on the freed handle %d gave %d", h, rc);
    }
    if (g_trace) fprintf(stderr, "%.*s", (int)g_loglen, g_log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    init_once();
    g_loglen = 0;
    nobjs = 0;
    nstale = 0;
    g_listed = NULL;
    for (int i = 0; i < NSLOTS; i++) slots[i] = NULL_INT;
    struct rd r = {data, size, 0};
    for (g_call = 0; g_call < MAX_CALLS && r.i < r.n; g_call++) {
        unsigned op = u8(&r);
        const struct api *A = &APIS[(op >> 4) & 1];
        switch ((enum op)(op & 15)) {
        case OP_CREATE: op_create(A, &r); break;
        case OP_SET: case OP_SET2: op_set(A, &r); break;
        case OP_DELETE: op_delete(A, &r); break;
        case OP_GET: op_get(A, &r); break;
        case OP_VALUELEN: op_valuelen(A, &r); break;
        case OP_GET_STRING: op_get_string(A, &r); break;
        case OP_NKEYS: op_nkeys(A, &r); break;
        case OP_NTHKEY: op_nthkey(A, &r); break;
        case OP_DUP: op_dup(A, &r); break;
        case OP_FREE: op_free(A, &r); break;
        case OP_CREATE_ENV: op_create_env(A, &r); break;
        case OP_CONVERT: op_convert(A, &r); break;
        case OP_ERROR_STRING: op_error_string(A, &r); break;
        case OP_ERROR_CLASS: op_error_class(A, &r); break;
        case OP_FILL: op_fill(A, &r); break;
        }
    }
    finish_input();
    return 0;
}
