/* test_errors.c - constants, error strings and classes, handle conversion, PMPI_ twins
 * (docs/reference.md, "Types and constants", "Handle conversions", "MPI_Error_string",
 * "MPI_Error_class", "Profiling names").
 *
 * - every constant has exactly the value of the table in "Types and constants", MPI_INFO_NULL
 *   is a constant expression (static initialiser, case label, array size), MPI_Info and
 *   MPI_Fint are int;
 * - MPI_Error_string knows every class of that table: success, non-empty, shorter than
 *   MPI_MAX_ERROR_STRING, *resultlen == strlen, nothing written after the NUL, all messages
 *   distinct; MPI_Error_class(code) == code; every other code in a wide range is MPI_ERR_ARG;
 * - MPI_Info_c2f/f2c/toint/fromint are the identity and round-trip, and a converted handle
 *   still works;
 * - every PMPI_ twin exists and behaves like its MPI_ name, and the two names mix freely.
 *
 * Built with MPI_INFO_TEST_ABI (against mpi_info_abi.h), the handle checks are the standard
 * ABI's instead: MPI_Info is a struct MPI_ABI_Info pointer, MPI_INFO_NULL and MPI_INFO_ENV are
 * the addresses 0x130 and 0x131 (constant expressions in static initialisers, not integer
 * constant expressions: no case label or array size), and toint/fromint convert between a
 * handle and its address, exactly for every int that is not negative. That library has no
 * MPI_Info_c2f/f2c and its header no MPI_Fint, so their checks are left out. */
#include "check.h"

#include <limits.h>
#include <stdint.h>

/* The integer a handle is, and the handle an integer is, without the library: in the int
 * library the handle itself, in the ABI library its address. */
#ifdef MPI_INFO_TEST_ABI
#define AS_INT(h) ((int)(intptr_t)(h))
#define AS_HANDLE(v) ((MPI_Info)(intptr_t)(v))
#else
#define AS_INT(h) ((int)(h))
#define AS_HANDLE(v) ((MPI_Info)(v))
#endif

/* A handle converted to its Fortran form and back. The ABI library has no c2f/f2c: the
 * standard ABI's mpi_fortran.h makes them macros for toint/fromint, which are used there. */
#ifdef MPI_INFO_TEST_ABI
#define VIA_FORTRAN(h) MPI_Info_fromint(MPI_Info_toint(h))
#else
#define VIA_FORTRAN(h) MPI_Info_f2c(MPI_Info_c2f(h))
#endif

/* ---- compile-time checks: these fail to compile if the header is wrong ---- */

/* MPI_INFO_NULL / MPI_INFO_ENV are constant expressions usable in static initialisers. */
static MPI_Info static_null = MPI_INFO_NULL;
static MPI_Info static_env = MPI_INFO_ENV;
static const MPI_Info static_table[2] = {MPI_INFO_NULL, MPI_INFO_ENV};
static char sized_by_key[MPI_MAX_INFO_KEY];

#ifdef MPI_INFO_TEST_ABI
/* MPI_Info is a pointer to the standard ABI's struct MPI_ABI_Info: with -Werror, an MPI_Info*
 * initialised from a struct MPI_ABI_Info ** only compiles if the types are compatible. */
static struct MPI_ABI_Info *abi_pointer_object;
static MPI_Info *info_ptr_from_abi_pointer = &abi_pointer_object;

/* 1 for MPI_INFO_NULL, 2 for ENV, 0 otherwise: a pointer is no case label, its integer form
 * is. */
static int classify(MPI_Info h) {
    switch (MPI_Info_toint(h)) {
    case 0x130:
        return 1;
    case 0x131:
        return 2;
    default:
        return 0;
    }
}
#else
/* ... and as array sizes (an integer constant expression). */
static char sized_by_null[MPI_INFO_NULL];

/* MPI_Info and MPI_Fint are int: with -Werror, an int* initialised from an MPI_Info* (or the
 * other way round) only compiles if the types are compatible. */
static int int_object;
static MPI_Info *info_ptr_from_int = &int_object;
static MPI_Fint *fint_ptr_from_int = &int_object;

/* 1 for MPI_INFO_NULL via a switch with it as a case label, 2 for ENV, 0 otherwise. */
static int classify(MPI_Info h) {
    switch (h) {
    case MPI_INFO_NULL:
        return 1;
    case MPI_INFO_ENV:
        return 2;
    default:
        return 0;
    }
}
#endif

static int is_known(int code) {
    for (int i = 0; i < N_ERROR_CODES; i++)
        if (ERROR_CODES[i].code == code) return 1;
    return 0;
}

static void test_constants(void) {
    /* docs/reference.md, "Types and constants", value by value. */
    CHECK(AS_INT(MPI_INFO_NULL) == 304);
    CHECK(AS_INT(MPI_INFO_ENV) == 305);
    CHECK(MPI_MAX_INFO_KEY == 256);
    CHECK(MPI_MAX_INFO_VAL == 1024);
    CHECK(MPI_MAX_ERROR_STRING == 512);
    for (int i = 0; i < N_ERROR_CODES; i++) {
        if (ERROR_CODES[i].code != ERROR_CODES[i].number)
            fprintf(stderr, "%s is %d, not %d\n", ERROR_CODES[i].name, ERROR_CODES[i].code,
                    ERROR_CODES[i].number);
        CHECK(ERROR_CODES[i].code == ERROR_CODES[i].number);
    }
    CHECK(MPI_THREAD_MULTIPLE == 4096);

    /* The constants are ints (not e.g. long or unsigned): the usual arithmetic type of the
     * expression has the size of int and is signed. In the ABI, the handles are pointers. */
#ifdef MPI_INFO_TEST_ABI
    CHECK(sizeof(MPI_INFO_NULL) == sizeof(void *));
    CHECK(sizeof(MPI_ERR_INFO) == sizeof(int));
    CHECK((MPI_ERR_INFO - 35) < 0);

    CHECK(sizeof(MPI_Info) == sizeof(void *));
    CHECK((uintptr_t)MPI_INFO_NULL == 0x130 && (uintptr_t)MPI_INFO_ENV == 0x131);

    /* Static initialisers hold the right values. */
    CHECK(static_null == AS_HANDLE(304));
    CHECK(static_env == AS_HANDLE(305));
    CHECK(static_table[0] == AS_HANDLE(304) && static_table[1] == AS_HANDLE(305));
    CHECK(sizeof sized_by_key == 256);
    *info_ptr_from_abi_pointer = MPI_INFO_ENV;
    CHECK(abi_pointer_object == MPI_INFO_ENV);

    /* Its integer form as a case label. */
    CHECK(classify(AS_HANDLE(304)) == 1);
    CHECK(classify(AS_HANDLE(305)) == 2);
    CHECK(classify(AS_HANDLE(0)) == 0);
    CHECK(classify(MPI_INFO_NULL) == 1);
#else
    CHECK(sizeof(MPI_INFO_NULL) == sizeof(int));
    CHECK(sizeof(MPI_ERR_INFO) == sizeof(int));
    CHECK((MPI_INFO_NULL - 305) < 0);

    CHECK(sizeof(MPI_Info) == sizeof(int));
    CHECK(sizeof(MPI_Fint) == sizeof(int));
    /* MPI_Info is a signed integer type. */
    {
        MPI_Info m = -1;
        CHECK(m < 0);
        MPI_Fint f = -1;
        CHECK(f < 0);
    }

    /* Static initialisers hold the right values. */
    CHECK(static_null == 304);
    CHECK(static_env == 305);
    CHECK(static_table[0] == 304 && static_table[1] == 305);
    CHECK(sizeof sized_by_null == 304);
    CHECK(sizeof sized_by_key == 256);
    *info_ptr_from_int = 7;
    CHECK(*fint_ptr_from_int == 7);

    /* Case labels. */
    CHECK(classify(304) == 1);
    CHECK(classify(305) == 2);
    CHECK(classify(0) == 0);
    CHECK(classify(MPI_INFO_NULL) == 1);
#endif
}

static void test_error_strings(void) {
    char msgs[N_ERROR_CODES][MPI_MAX_ERROR_STRING];
    int ok_all = 1;

    for (int i = 0; i < N_ERROR_CODES; i++) {
        char buf[MPI_MAX_ERROR_STRING + 64];
        int len = 0x5A5A5A5A;
        int code = ERROR_CODES[i].code;
        fill_sentinel(buf, sizeof buf);
        int rc = MPI_Error_string(code, buf, &len);
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "MPI_Error_string(%s) returned %d\n", ERROR_CODES[i].name, rc);
            ok_all = 0;
            msgs[i][0] = '\0';
            CHECK(rc == MPI_SUCCESS);
            continue;
        }
        CHECK(rc == MPI_SUCCESS);
        /* A NUL within the first MPI_MAX_ERROR_STRING bytes. */
        void *nul = memchr(buf, '\0', MPI_MAX_ERROR_STRING);
        CHECK(nul != NULL);
        if (!nul) {
            ok_all = 0;
            msgs[i][0] = '\0';
            continue;
        }
        size_t sl = (size_t)((char *)nul - buf);
        CHECK(sl > 0);                          /* non-empty */
        CHECK(sl < MPI_MAX_ERROR_STRING);       /* at most 511 characters + NUL */
        CHECK(len == (int)sl);                  /* *resultlen == strlen */
        CHECK(untouched(buf, sl + 1, sizeof buf)); /* nothing after the NUL ("Strings") */
        memcpy(msgs[i], buf, sl + 1);

        /* Same message on a second call (no hidden state). */
        {
            char again[MPI_MAX_ERROR_STRING];
            int len2 = -7;
            CHECK_RC(MPI_Error_string(code, again, &len2), MPI_SUCCESS);
            CHECK(len2 == len && strcmp(again, msgs[i]) == 0);
        }

        /* A buffer of exactly MPI_MAX_ERROR_STRING bytes whose end is followed by a
         * guard page works (the library writes no more than strlen+1 bytes). */
        {
            char *g = guarded_end(MPI_MAX_ERROR_STRING);
            int len3 = -7;
            fill_sentinel(g, MPI_MAX_ERROR_STRING);
            CHECK_RC(MPI_Error_string(code, g, &len3), MPI_SUCCESS);
            CHECK(len3 == len && strcmp(g, msgs[i]) == 0);
        }

        /* MPI_Error_class: each code is its own class. */
        {
            int cls = 0x5A5A5A5A;
            CHECK_RC(MPI_Error_class(code, &cls), MPI_SUCCESS);
            CHECK(cls == code);
            cls = 0x5A5A5A5A;
            CHECK_RC(PMPI_Error_class(code, &cls), MPI_SUCCESS);
            CHECK(cls == code);
        }
    }

    /* Distinct messages for distinct classes. */
    if (ok_all) {
        int distinct = 1;
        for (int i = 0; i < N_ERROR_CODES; i++)
            for (int j = i + 1; j < N_ERROR_CODES; j++)
                if (strcmp(msgs[i], msgs[j]) == 0) {
                    fprintf(stderr, "same message for %s and %s: \"%s\"\n", ERROR_CODES[i].name,
                            ERROR_CODES[j].name, msgs[i]);
                    distinct = 0;
                }
        CHECK(distinct);
    }

    /* Every code in a wide range that is not one of the classes of "Types and constants" is
     * unknown: MPI_ERR_ARG, outputs untouched. (Single codes, INT_MIN and INT_MAX among them,
     * are also checked one by one in test_badargs.) */
    {
        int wrong = 0;
        for (int code = -300; code <= 5000; code++) {
            char buf[16];
            int len = 0x5A5A5A5A, cls = 0x5A5A5A5A;
            if (is_known(code)) continue;
            fill_sentinel(buf, sizeof buf);
            int rc1 = MPI_Error_string(code, buf, &len);
            int rc2 = MPI_Error_class(code, &cls);
            if (rc1 != MPI_ERR_ARG || rc2 != MPI_ERR_ARG || len != 0x5A5A5A5A ||
                cls != 0x5A5A5A5A || !untouched(buf, 0, sizeof buf)) {
                if (wrong < 5)
                    fprintf(stderr, "unknown code %d: Error_string %d, Error_class %d\n", code,
                            rc1, rc2);
                wrong++;
            }
        }
        CHECK(wrong == 0);
    }
}

static void test_conversion(void) {
    MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL;
    CHECK_RC(MPI_Info_create(&a), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&b), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(a, "which", "a"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(b, "which", "b"), MPI_SUCCESS);

    /* Identity on live handles, MPI_INFO_NULL and MPI_INFO_ENV. */
    MPI_Info hs[4] = {a, b, MPI_INFO_NULL, MPI_INFO_ENV};
    for (int i = 0; i < 4; i++) {
        MPI_Info h = hs[i];
#ifndef MPI_INFO_TEST_ABI
        CHECK(MPI_Info_c2f(h) == (MPI_Fint)h);
        CHECK(MPI_Info_f2c((MPI_Fint)h) == h);
#endif
        CHECK(MPI_Info_toint(h) == AS_INT(h));
        CHECK(MPI_Info_fromint(AS_INT(h)) == h);
#ifndef MPI_INFO_TEST_ABI
        CHECK(MPI_Info_f2c(MPI_Info_c2f(h)) == h);
#endif
        CHECK(MPI_Info_fromint(MPI_Info_toint(h)) == h);
#ifndef MPI_INFO_TEST_ABI
        CHECK(MPI_Info_c2f(MPI_Info_f2c((MPI_Fint)h)) == (MPI_Fint)h);
#endif
        CHECK(MPI_Info_toint(MPI_Info_fromint(AS_INT(h))) == AS_INT(h));
#ifndef MPI_INFO_TEST_ABI
        CHECK(PMPI_Info_c2f(h) == (MPI_Fint)h);
        CHECK(PMPI_Info_f2c((MPI_Fint)h) == h);
#endif
        CHECK(PMPI_Info_toint(h) == AS_INT(h));
        CHECK(PMPI_Info_fromint(AS_INT(h)) == h);
    }
#ifndef MPI_INFO_TEST_ABI
    CHECK(MPI_Info_c2f(MPI_INFO_NULL) == 304);
    CHECK(MPI_Info_f2c(304) == MPI_INFO_NULL);
#endif
    CHECK(MPI_Info_toint(MPI_INFO_NULL) == 304);
    CHECK(MPI_Info_fromint(304) == MPI_INFO_NULL);
#ifdef MPI_INFO_TEST_ABI
    CHECK(MPI_Info_toint(MPI_INFO_ENV) == 305);
#else
    CHECK(MPI_Info_c2f(MPI_INFO_ENV) == 305);
#endif
    CHECK(MPI_Info_fromint(305) == MPI_INFO_ENV);

#ifdef MPI_INFO_TEST_ABI
    /* Values that are not handles: an int that is not negative is an address and back; a
     * negative one (an address no int is) gives a handle that names no object. */
    {
        int vals[] = {0, -1, 1, 4095, INT_MIN, INT_MAX, 123456789};
        int wrong = 0;
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            int v = vals[i], n = 0x5A5A5A5A;
            if (v >= 0 ? MPI_Info_fromint(v) != AS_HANDLE(v) ||
                             MPI_Info_toint(AS_HANDLE(v)) != v ||
                             MPI_Info_toint(MPI_Info_fromint(v)) != v
                       : MPI_Info_get_nkeys(MPI_Info_fromint(v), &n) != MPI_ERR_INFO ||
                             n != 0x5A5A5A5A) {
                fprintf(stderr, "conversion of %d is wrong\n", v);
                wrong++;
            }
        }
        CHECK(wrong == 0);
    }
#else
    /* The identity on every int (docs/reference.md, "Handle conversions"): also on values that
     * are not handles. */
    {
        int vals[] = {0, -1, 1, 4095, INT_MIN, INT_MAX, 123456789};
        int wrong = 0;
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            int v = vals[i];
            if (MPI_Info_c2f(v) != v || MPI_Info_f2c(v) != v || MPI_Info_toint(v) != v ||
                MPI_Info_fromint(v) != v) {
                fprintf(stderr, "conversion of %d is not the identity\n", v);
                wrong++;
            }
        }
        CHECK(wrong == 0);
    }
#endif

    /* A handle converted with c2f then f2c (and toint/fromint) still works. */
    {
        MPI_Info a2 = VIA_FORTRAN(a);
        MPI_Info b2 = MPI_Info_fromint(MPI_Info_toint(b));
        char buf[8];
        int flag = -1;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(a2, "which", 7, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, "a") == 0);
        flag = -1;
        CHECK_RC(MPI_Info_get(b2, "which", 7, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, "b") == 0);
        CHECK_RC(MPI_Info_set(VIA_FORTRAN(a), "more", "x"), MPI_SUCCESS);
        int n = -1;
        CHECK_RC(MPI_Info_get_nkeys(a, &n), MPI_SUCCESS);
        CHECK(n == 2);
        /* ENV converted still reads. */
        n = -1;
        CHECK_RC(MPI_Info_get_nkeys(VIA_FORTRAN(MPI_INFO_ENV), &n), MPI_SUCCESS);
        CHECK(n >= 3); /* maxprocs, soft, thread_level are always known */
        /* NULL converted is still not an object. */
        n = 0x5A5A5A5A;
        CHECK_RC(MPI_Info_get_nkeys(VIA_FORTRAN(MPI_INFO_NULL), &n), MPI_ERR_INFO);
        CHECK(n == 0x5A5A5A5A);
        /* Free through the converted value. */
        MPI_Info fa = MPI_Info_fromint(MPI_Info_toint(a2));
        CHECK_RC(MPI_Info_free(&fa), MPI_SUCCESS);
        CHECK(fa == MPI_INFO_NULL);
        n = 0x5A5A5A5A;
        CHECK_RC(MPI_Info_get_nkeys(a, &n), MPI_ERR_INFO);
        CHECK(n == 0x5A5A5A5A);
    }
    CHECK_RC(MPI_Info_free(&b), MPI_SUCCESS);
    CHECK(b == MPI_INFO_NULL);
}

/* Every PMPI_ twin: exists (links) and behaves like its MPI_ name; the names mix. */
static void test_pmpi(void) {
    MPI_Info p = MPI_INFO_NULL, q = MPI_INFO_NULL, e = MPI_INFO_NULL;
    char buf[64];
    int flag, n, vl, bl;

    CHECK_RC(PMPI_Info_create(&p), MPI_SUCCESS);
    CHECK(p != MPI_INFO_NULL && MPI_Info_toint(p) >= 4096);
    CHECK_RC(PMPI_Info_set(p, "k1", "v1"), MPI_SUCCESS);
    CHECK_RC(PMPI_Info_set(p, "k2", "value2"), MPI_SUCCESS);
    /* MPI_ sees what PMPI_ wrote. */
    flag = -1;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(MPI_Info_get(p, "k1", 10, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(buf, "v1") == 0 && untouched(buf, 3, sizeof buf));
    /* PMPI_Info_get: found, truncated, missing. */
    flag = -1;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(PMPI_Info_get(p, "k2", 10, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(buf, "value2") == 0 && untouched(buf, 7, sizeof buf));
    flag = -1;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(PMPI_Info_get(p, "k2", 3, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(buf, "val") == 0 && untouched(buf, 4, sizeof buf));
    flag = -1;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(PMPI_Info_get(p, "nope", 10, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && untouched(buf, 0, sizeof buf));
    /* PMPI_ errors have the same classes. */
    CHECK_RC(PMPI_Info_get(p, "", 10, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK_RC(PMPI_Info_get(p, "k1", -1, buf, &flag), MPI_ERR_ARG);
    CHECK_RC(PMPI_Info_get(MPI_INFO_NULL, "k1", 10, buf, &flag), MPI_ERR_INFO);
    CHECK_RC(PMPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);
    CHECK_RC(PMPI_Info_set(p, "k", NULL), MPI_ERR_INFO_VALUE);

    vl = -1;
    flag = -1;
    CHECK_RC(PMPI_Info_get_valuelen(p, "k2", &vl, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && vl == 6);
    bl = 4;
    flag = -1;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(PMPI_Info_get_string(p, "k2", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && bl == 7 && strcmp(buf, "val") == 0 && untouched(buf, 4, sizeof buf));
    n = -1;
    CHECK_RC(PMPI_Info_get_nkeys(p, &n), MPI_SUCCESS);
    CHECK(n == 2);
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(PMPI_Info_get_nthkey(p, 1, buf), MPI_SUCCESS);
    CHECK(strcmp(buf, "k2") == 0 && untouched(buf, 3, sizeof buf));
    CHECK_RC(PMPI_Info_get_nthkey(p, 2, buf), MPI_ERR_ARG);

    CHECK_RC(PMPI_Info_dup(p, &q), MPI_SUCCESS);
    CHECK(q != p && MPI_Info_toint(q) >= 4096);
    CHECK_RC(PMPI_Info_delete(q, "k1"), MPI_SUCCESS);
    CHECK_RC(PMPI_Info_delete(q, "k1"), MPI_ERR_INFO_NOKEY);
    n = -1;
    CHECK_RC(MPI_Info_get_nkeys(q, &n), MPI_SUCCESS);
    CHECK(n == 1);
    n = -1;
    CHECK_RC(MPI_Info_get_nkeys(p, &n), MPI_SUCCESS);
    CHECK(n == 2); /* the source of the dup is unchanged */

    {
        char a0[] = "prog", a1[] = "x";
        char *av[] = {a0, a1, NULL};
        CHECK_RC(PMPI_Info_create_env(2, av, &e), MPI_SUCCESS);
        flag = -1;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(e, "command", 60, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, "prog") == 0);
        CHECK_RC(PMPI_Info_create_env(-1, av, &e), MPI_ERR_ARG);
    }

    /* PMPI_Info_free, and mixing: created by MPI_, freed by PMPI_ and vice versa. */
    CHECK_RC(PMPI_Info_free(&p), MPI_SUCCESS);
    CHECK(p == MPI_INFO_NULL);
    CHECK_RC(PMPI_Info_free(&p), MPI_ERR_INFO);
    CHECK_RC(PMPI_Info_free(NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_free(&q), MPI_SUCCESS);
    CHECK_RC(PMPI_Info_free(&e), MPI_SUCCESS);
    {
        MPI_Info m = MPI_INFO_NULL;
        CHECK_RC(MPI_Info_create(&m), MPI_SUCCESS);
        MPI_Info dead = m;
        CHECK_RC(PMPI_Info_free(&m), MPI_SUCCESS);
        n = 0x5A5A5A5A;
        CHECK_RC(MPI_Info_get_nkeys(dead, &n), MPI_ERR_INFO);
        CHECK(n == 0x5A5A5A5A);
    }

    /* PMPI_Error_string gives the same text as MPI_Error_string. */
    for (int i = 0; i < N_ERROR_CODES; i++) {
        char s1[MPI_MAX_ERROR_STRING], s2[MPI_MAX_ERROR_STRING];
        int l1 = -1, l2 = -2;
        CHECK_RC(MPI_Error_string(ERROR_CODES[i].code, s1, &l1), MPI_SUCCESS);
        CHECK_RC(PMPI_Error_string(ERROR_CODES[i].code, s2, &l2), MPI_SUCCESS);
        CHECK(l1 == l2 && l1 >= 0 && strcmp(s1, s2) == 0);
    }
    {
        char s[MPI_MAX_ERROR_STRING];
        int l = 0x5A5A5A5A, c = 0x5A5A5A5A;
        CHECK_RC(PMPI_Error_string(12, s, &l), MPI_ERR_ARG);
        CHECK(l == 0x5A5A5A5A);
        CHECK_RC(PMPI_Error_class(12, &c), MPI_ERR_ARG);
        CHECK(c == 0x5A5A5A5A);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    test_constants();
    test_error_strings();
    test_conversion();
    test_pmpi();
    return check_report();
}
