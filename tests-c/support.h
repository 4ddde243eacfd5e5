/* support.h - helpers shared by the C test programs, on top of check.h.
 *
 * Include this instead of check.h (it includes check.h first). Everything here is static
 * inline, so a program that uses only some of the helpers still builds with -Wall -Werror.
 *
 *   repeat      a malloc'd string of n copies of one character (long keys and values)
 *   dump        a snapshot of an object's full contents; same_dump / same_as compare them
 *   model       the pairs an object should hold, in order, to compare the object with */
#ifndef SUPPORT_H
#define SUPPORT_H

#include "check.h"

/* ---------------------------------------------------------------- strings */

/* A malloc'd string of n copies of c (and a NUL): keys and values of exact lengths.
 * Exits with 2 if out of memory. */
static inline char *repeat(char c, size_t n) {
    char *s = (char *)malloc(n + 1);
    if (!s) exit(2);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

/* ---------------------------------------------------------------- snapshots */

/* A snapshot of an object, used to check that calls (failed ones, calls on other objects)
 * changed nothing: nkeys (-1 if get_nkeys failed), then every key and its value in order,
 * each NUL-terminated. A pair whose calls fail or disagree (get_nthkey fails, get fails or
 * says flag != 1 or leaves no NUL, get_valuelen disagrees with the value's length) is
 * written with a "<...>" marker instead, so it differs from any good snapshot. Returns a
 * malloc'd buffer (any size of object), its length in *len. */
static inline char *dump(MPI_Info info, size_t *len) {
    int n = -1;
    size_t cap = 1024, used;
    char *out = (char *)malloc(cap);
    if (!out) exit(2);
    if (MPI_Info_get_nkeys(info, &n) != MPI_SUCCESS) n = -1;
    used = (size_t)snprintf(out, cap, "%d", n) + 1;
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
        int flag = 0, vl = -1;
        fill_sentinel(key, sizeof key);
        fill_sentinel(val, sizeof val);
        if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS || !memchr(key, '\0', sizeof key))
            strcpy(key, "<nthkey failed>");
        if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS || flag != 1 ||
            !memchr(val, '\0', sizeof val))
            strcpy(val, "<get failed>");
        else if (MPI_Info_get_valuelen(info, key, &vl, &flag) != MPI_SUCCESS || flag != 1 ||
                 vl != (int)strlen(val))
            strcpy(val, "<valuelen mismatch>");
        size_t kl = strlen(key), vlen = strlen(val);
        while (used + kl + vlen + 2 > cap) {
            cap *= 2;
            out = (char *)realloc(out, cap);
            if (!out) exit(2);
        }
        memcpy(out + used, key, kl + 1);
        used += kl + 1;
        memcpy(out + used, val, vlen + 1);
        used += vlen + 1;
    }
    *len = used;
    return out;
}

/* 1 if two snapshots from dump() are the same. */
static inline int same_dump(const char *a, size_t alen, const char *b, size_t blen) {
    return alen == blen && memcmp(a, b, alen) == 0;
}

/* 1 if info's contents now are exactly the snapshot snap (from dump(), snaplen bytes). */
static inline int same_as(MPI_Info info, const char *snap, size_t snaplen) {
    size_t len;
    char *now = dump(info, &len);
    int same = same_dump(now, len, snap, snaplen);
    free(now);
    return same;
}

/* ---------------------------------------------------------------- array model */

/* The pairs an object should hold, in the object's order: k[i] and v[i] (malloc'd copies of
 * any length) for i < n. At most cap pairs (fixed by model_init; more is a bug in the test,
 * which exits with 2). Callers read n, k and v directly; they change it only through the
 * model_* functions, which do what MPI_Info_set/delete/dup do to an object. */
typedef struct {
    int n, cap;
    char **k;
    char **v;
} model;

/* A malloc'd copy of s; exits with 2 if out of memory. */
static inline char *model_strdup(const char *s) {
    size_t l = strlen(s) + 1;
    char *c = (char *)malloc(l);
    if (!c) exit(2);
    memcpy(c, s, l);
    return c;
}

/* An empty model with room for cap pairs. */
static inline void model_init(model *m, int cap) {
    size_t slots = cap > 0 ? (size_t)cap : 1;
    m->n = 0;
    m->cap = cap;
    m->k = (char **)malloc(slots * sizeof *m->k);
    m->v = (char **)malloc(slots * sizeof *m->v);
    if (!m->k || !m->v) exit(2);
}

/* dst = a copy of src (as MPI_Info_dup), with room for cap pairs. */
static inline void model_copy(model *dst, const model *src, int cap) {
    model_init(dst, cap);
    if (src->n > cap) exit(2);
    for (int i = 0; i < src->n; i++) {
        dst->k[i] = model_strdup(src->k[i]);
        dst->v[i] = model_strdup(src->v[i]);
    }
    dst->n = src->n;
}

/* Frees what the model holds. */
static inline void model_free(model *m) {
    for (int i = 0; i < m->n; i++) {
        free(m->k[i]);
        free(m->v[i]);
    }
    free(m->k);
    free(m->v);
    m->n = 0;
}

/* The position of key, or -1 if absent. */
static inline int model_find(const model *m, const char *key) {
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->k[i], key) == 0) return i;
    return -1;
}

/* As MPI_Info_set: a new key goes to the end, an existing one keeps its position. */
static inline void model_set(model *m, const char *key, const char *val) {
    int i = model_find(m, key);
    if (i < 0) {
        if (m->n == m->cap) exit(2);
        i = m->n++;
        m->k[i] = model_strdup(key);
    } else {
        free(m->v[i]);
    }
    m->v[i] = model_strdup(val);
}

/* As MPI_Info_delete: later pairs move down one. Returns 1 if key was there, else 0. */
static inline int model_delete(model *m, const char *key) {
    int i = model_find(m, key);
    if (i < 0) return 0;
    free(m->k[i]);
    free(m->v[i]);
    memmove(&m->k[i], &m->k[i + 1], (size_t)(m->n - i - 1) * sizeof *m->k);
    memmove(&m->v[i], &m->v[i + 1], (size_t)(m->n - i - 1) * sizeof *m->v);
    m->n--;
    return 1;
}

#endif
