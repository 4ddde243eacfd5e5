/* test_mpix_merge.c - MPIX_Info_merge and MPIX_Info_equal, through both names.
 *
 * Merge: the rule of MPI_Win_set_info (docs/mpix.md, "MPIX_Info_merge") with and without overwrite,
 * positions kept and new keys appended in the source's order, self-merge, MPI_INFO_ENV as a source
 * (never a target), a target whose pairs are shared with a duplicate (the duplicate must not
 * change), the source never changed, errors in checking order with no object changed, and random
 * merges across the index threshold against the array model of support.h.
 * Equal: ordered and unordered, same object, MPI_INFO_ENV, values and counts that differ, errors
 * in checking order with the output untouched. */
#include "mpix_support.h"

#include <limits.h>

#define ISENT ((int)0xA5A5A5A5u)

typedef int (*merge_fn)(MPI_Info, MPI_Info, int);
typedef int (*equal_fn)(MPI_Info, MPI_Info, int, int *);
static const merge_fn MERGE[2] = {MPIX_Info_merge, PMPIX_Info_merge};
static const equal_fn EQUAL[2] = {MPIX_Info_equal, PMPIX_Info_equal};

static const char *const TARGET[] = {"a", "1", "b", "2", "c", "3"};
static const char *const SOURCE[] = {"d", "4", "b", "two", "e", "5", "a", "1"};

static void test_merge_rule(int api) {
    MPI_Info target = make_info(TARGET, 3), source = make_info(SOURCE, 4);
    CHECK_RC(MERGE[api](target, source, 0), MPI_SUCCESS);
    const char *const kept[] = {"a", "1", "b", "2", "c", "3", "d", "4", "e", "5"};
    CHECK(holds(target, kept, 5));
    CHECK(holds(source, SOURCE, 4));
    CHECK_RC(MPI_Info_free(&target), MPI_SUCCESS);

    target = make_info(TARGET, 3);
    CHECK_RC(MERGE[api](target, source, 1), MPI_SUCCESS);
    const char *const replaced[] = {"a", "1", "b", "two", "c", "3", "d", "4", "e", "5"};
    CHECK(holds(target, replaced, 5));
    /* Any non-zero overwrite is true. */
    CHECK_RC(MPI_Info_set(target, "b", "again"), MPI_SUCCESS);
    CHECK_RC(MERGE[api](target, source, -3), MPI_SUCCESS);
    CHECK(holds(target, replaced, 5));
    CHECK(holds(source, SOURCE, 4));

    /* Self-merge changes nothing, either way. */
    CHECK_RC(MERGE[api](target, target, 0), MPI_SUCCESS);
    CHECK_RC(MERGE[api](target, target, 1), MPI_SUCCESS);
    CHECK(holds(target, replaced, 5));

    /* Into an empty object: a copy, in the source's order. An empty source changes nothing. */
    MPI_Info empty;
    CHECK_RC(MPI_Info_create(&empty), MPI_SUCCESS);
    CHECK_RC(MERGE[api](target, empty, 1), MPI_SUCCESS);
    CHECK(holds(target, replaced, 5));
    CHECK_RC(MERGE[api](empty, source, 0), MPI_SUCCESS);
    CHECK(holds(empty, SOURCE, 4));

    /* The target's pairs shared with a duplicate: only the target changes. */
    MPI_Info copy;
    CHECK_RC(MPI_Info_dup(source, &copy), MPI_SUCCESS);
    const char *const extra[] = {"z", "26", "a", "changed"};
    MPI_Info more = make_info(extra, 2);
    CHECK_RC(MERGE[api](copy, more, 1), MPI_SUCCESS);
    const char *const merged_copy[] = {"d", "4", "b", "two", "e", "5", "a", "changed", "z", "26"};
    CHECK(holds(copy, merged_copy, 5));
    CHECK(holds(source, SOURCE, 4));
    /* And the source shared with the target's duplicate. */
    CHECK_RC(MERGE[api](source, copy, 0), MPI_SUCCESS);
    const char *const source_plus[] = {"d", "4", "b", "two", "e", "5", "a", "1", "z", "26"};
    CHECK(holds(source, source_plus, 5));
    CHECK(holds(copy, merged_copy, 5));

    MPI_Info *all[] = {&target, &source, &empty, &copy, &more};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK_RC(MPI_Info_free(all[i]), MPI_SUCCESS);
}

static void test_merge_env(int api) {
    MPI_Info target, env_copy;
    CHECK_RC(MPI_Info_create(&target), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(target, "maxprocs", "8"), MPI_SUCCESS);
    CHECK_RC(MERGE[api](target, MPI_INFO_ENV, 0), MPI_SUCCESS);
    int value = 0, flag = 0, nkeys = 0, env_nkeys = -1;
    CHECK_RC(MPIX_Info_get_int(target, "maxprocs", &value, &flag), MPI_SUCCESS);
    CHECK(value == 8 && flag == 1);
    CHECK_RC(MPI_Info_get_nkeys(target, &nkeys), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get_nkeys(MPI_INFO_ENV, &env_nkeys), MPI_SUCCESS);
    CHECK(nkeys == env_nkeys); /* maxprocs was already there; everything else was added */
    CHECK_RC(MERGE[api](target, MPI_INFO_ENV, 1), MPI_SUCCESS);
    CHECK_RC(MPIX_Info_get_int(target, "maxprocs", &value, &flag), MPI_SUCCESS);
    CHECK(value == 1);
    /* With the keys in ENV's order now except maxprocs first: unordered-equal to ENV. */
    int equal = ISENT;
    CHECK_RC(EQUAL[api](target, MPI_INFO_ENV, 0, &equal), MPI_SUCCESS);
    CHECK(equal == 1);
    CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &env_copy), MPI_SUCCESS);
    CHECK_RC(EQUAL[api](env_copy, MPI_INFO_ENV, 1, &equal), MPI_SUCCESS);
    CHECK(equal == 1);
    /* ENV is never a target, whatever the source. */
    CHECK_RC(MERGE[api](MPI_INFO_ENV, target, 1), MPI_ERR_INFO);
    CHECK_RC(MERGE[api](MPI_INFO_ENV, MPI_INFO_ENV, 1), MPI_ERR_INFO);
    CHECK_RC(EQUAL[api](env_copy, MPI_INFO_ENV, 1, &equal), MPI_SUCCESS);
    CHECK(equal == 1);
    CHECK_RC(MPI_Info_free(&target), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&env_copy), MPI_SUCCESS);
}

static void test_merge_errors(int api) {
    MPI_Info target = make_info(TARGET, 3), source = make_info(SOURCE, 4), dead;
    CHECK_RC(MPI_Info_create(&dead), MPI_SUCCESS);
    MPI_Info freed = dead;
    CHECK_RC(MPI_Info_free(&dead), MPI_SUCCESS);
    const MPI_Info bad[] = {MPI_INFO_NULL,           freed,
                            MPI_Info_fromint(-1),      MPI_Info_fromint(0),
                            MPI_Info_fromint(INT_MIN), MPI_Info_fromint(INT_MAX),
                            MPI_Info_fromint(4095)};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_RC(MERGE[api](bad[i], source, 1), MPI_ERR_INFO);
        CHECK_RC(MERGE[api](bad[i], bad[i], 1), MPI_ERR_INFO);
        CHECK_RC(MERGE[api](target, bad[i], 1), MPI_ERR_INFO);
        CHECK_RC(MERGE[api](MPI_INFO_ENV, bad[i], 0), MPI_ERR_INFO);
    }
    CHECK(holds(target, TARGET, 3));
    CHECK(holds(source, SOURCE, 4));
    CHECK_RC(MPI_Info_free(&target), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&source), MPI_SUCCESS);
}

static void test_equal(int api) {
    const char *const ab[] = {"a", "1", "b", "2"};
    const char *const ba[] = {"b", "2", "a", "1"};
    const char *const ab3[] = {"a", "1", "b", "3"};
    const char *const ac[] = {"a", "1", "c", "2"};
    MPI_Info x = make_info(ab, 2), y = make_info(ba, 2), z = make_info(ab3, 2), w = make_info(ac, 2), one = make_info(ab, 1),
             empty1, empty2;
    CHECK_RC(MPI_Info_create(&empty1), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&empty2), MPI_SUCCESS);
    const struct { MPI_Info a, b; int ordered, want; } cases[] = {
        {x, x, 1, 1}, {x, x, 0, 1}, {x, y, 0, 1}, {x, y, 1, 0}, {y, x, 0, 1}, {x, y, 7, 0},
        {x, z, 0, 0}, {x, z, 1, 0}, {x, w, 0, 0}, {x, one, 0, 0}, {one, x, 0, 0},
        {empty1, empty2, 1, 1}, {empty1, x, 0, 0}, {x, MPI_INFO_ENV, 0, 0},
        {MPI_INFO_ENV, MPI_INFO_ENV, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int equal = ISENT;
        CHECK_RC(EQUAL[api](cases[i].a, cases[i].b, cases[i].ordered, &equal), MPI_SUCCESS);
        CHECK(equal == cases[i].want);
        if (equal != cases[i].want) fprintf(stderr, "  equal case %zu: %d\n", i, equal);
    }
    /* A byte's difference in a value, and the same pairs after a delete and a set. */
    CHECK_RC(MPI_Info_set(y, "a", "1 "), MPI_SUCCESS);
    int equal = ISENT;
    CHECK_RC(EQUAL[api](x, y, 0, &equal), MPI_SUCCESS);
    CHECK(equal == 0);
    CHECK_RC(MPI_Info_delete(y, "b"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(y, "a", "1"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(y, "b", "2"), MPI_SUCCESS);
    CHECK_RC(EQUAL[api](x, y, 1, &equal), MPI_SUCCESS);
    CHECK(equal == 1);

    /* Errors, in order: a, then b, then equal; the output untouched. */
    MPI_Info dead;
    CHECK_RC(MPI_Info_create(&dead), MPI_SUCCESS);
    MPI_Info freed = dead;
    CHECK_RC(MPI_Info_free(&dead), MPI_SUCCESS);
    const MPI_Info bad[] = {MPI_INFO_NULL, freed, MPI_Info_fromint(-1), MPI_Info_fromint(0),
                            MPI_Info_fromint(INT_MIN)};
    equal = ISENT;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_RC(EQUAL[api](bad[i], x, 1, &equal), MPI_ERR_INFO);
        CHECK_RC(EQUAL[api](x, bad[i], 1, &equal), MPI_ERR_INFO);
        CHECK_RC(EQUAL[api](bad[i], bad[i], 0, NULL), MPI_ERR_INFO);
        CHECK_RC(EQUAL[api](x, bad[i], 0, NULL), MPI_ERR_INFO);
    }
    CHECK_RC(EQUAL[api](x, x, 0, NULL), MPI_ERR_ARG);
    CHECK(equal == ISENT);
    MPI_Info *all[] = {&x, &y, &z, &w, &one, &empty1, &empty2};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK_RC(MPI_Info_free(all[i]), MPI_SUCCESS);
}

/* Keys from a small space, some long, so merges hit existing keys and cross the index
 * threshold; values of random lengths. */
static void random_pair(char *key, char *value) {
    unsigned k = rnd(60);
    if (k % 9 == 0)
        snprintf(key, MPI_MAX_INFO_KEY, "%u_%0240u", k, k);
    else
        snprintf(key, MPI_MAX_INFO_KEY, "key_%u", k);
    size_t len = rnd(12);
    for (size_t i = 0; i < len; i++) value[i] = (char)('a' + rnd(26));
    value[len] = '\0';
}

static void fill_random(MPI_Info info, model *m, int n) {
    char key[MPI_MAX_INFO_KEY], value[16];
    for (int i = 0; i < n; i++) {
        random_pair(key, value);
        CHECK_RC(MPI_Info_set(info, key, value), MPI_SUCCESS);
        model_set(m, key, value);
    }
}

/* 1 if info holds exactly what the model holds, in order. */
static int matches(MPI_Info info, const model *m) {
    const char **kv = (const char **)malloc((size_t)(2 * m->n + 1) * sizeof *kv);
    if (!kv) exit(2);
    for (int i = 0; i < m->n; i++) {
        kv[2 * i] = m->k[i];
        kv[2 * i + 1] = m->v[i];
    }
    int same = holds(info, kv, m->n);
    free(kv);
    return same;
}

/* What MPIX_Info_equal should say of two models. */
static int models_equal(const model *a, const model *b, int ordered) {
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++) {
        int j = ordered ? (strcmp(a->k[i], b->k[i]) == 0 ? i : -1) : model_find(b, a->k[i]);
        if (j < 0 || strcmp(a->v[i], b->v[j]) != 0) return 0;
    }
    return 1;
}

/* Random objects merged into each other (sometimes with a duplicate sharing the target's
 * pairs, sometimes with itself), each checked against the model, and compared with equal. */
static void test_random(int api) {
    for (int round = 0; round < 300; round++) {
        MPI_Info t, s, shadow = MPI_INFO_NULL;
        model mt, ms, mshadow;
        CHECK_RC(MPI_Info_create(&t), MPI_SUCCESS);
        CHECK_RC(MPI_Info_create(&s), MPI_SUCCESS);
        model_init(&mt, 200);
        model_init(&ms, 200);
        fill_random(t, &mt, (int)rnd(30));
        fill_random(s, &ms, (int)rnd(30));
        int overwrite = (int)rnd(2), self = rnd(10) == 0;
        if (rnd(2)) {
            CHECK_RC(MPI_Info_dup(t, &shadow), MPI_SUCCESS);
            model_copy(&mshadow, &mt, 200);
        }
        CHECK_RC(MERGE[api](t, self ? t : s, overwrite), MPI_SUCCESS);
        if (!self)
            for (int i = 0; i < ms.n; i++)
                if (overwrite || model_find(&mt, ms.k[i]) < 0) model_set(&mt, ms.k[i], ms.v[i]);
        CHECK(matches(t, &mt));
        CHECK(matches(s, &ms));
        if (shadow != MPI_INFO_NULL) {
            CHECK(matches(shadow, &mshadow));
            CHECK_RC(MPI_Info_free(&shadow), MPI_SUCCESS);
            model_free(&mshadow);
        }
        for (int ordered = 0; ordered < 2; ordered++) {
            int equal = ISENT;
            CHECK_RC(EQUAL[api](t, s, ordered, &equal), MPI_SUCCESS);
            CHECK(equal == models_equal(&mt, &ms, ordered));
        }
        /* Merging the target into the source and back makes them unordered-equal. */
        CHECK_RC(MERGE[api](s, t, 1), MPI_SUCCESS);
        CHECK_RC(MERGE[api](t, s, 1), MPI_SUCCESS);
        int equal = ISENT;
        CHECK_RC(EQUAL[api](s, t, 0, &equal), MPI_SUCCESS);
        CHECK(equal == 1);
        CHECK_RC(MPI_Info_free(&t), MPI_SUCCESS);
        CHECK_RC(MPI_Info_free(&s), MPI_SUCCESS);
        model_free(&mt);
        model_free(&ms);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    for (int api = 0; api < 2; api++) {
        test_merge_rule(api);
        test_merge_env(api);
        test_merge_errors(api);
        test_equal(api);
        test_random(api);
    }
    return check_report();
}
