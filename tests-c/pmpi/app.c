/* app.c - the profiling interface (docs/reference.md, "Profiling names"), seen from an
 * application.
 *
 * Linked with tests-c/pmpi/tool.c ahead of the library (as a shared library, and as an
 * object file ahead of libmpi_info.a). The tool wraps MPI_Info_create, MPI_Info_set,
 * MPI_Info_get and MPI_Info_free, counting calls and forwarding to the PMPI_ twins. This
 * program checks that the tool sees exactly the calls made to those four, that the calls
 * still work, that direct PMPI_ calls and the library's own work (dup, create_env, ...) do
 * not go through the tool, that the functions the tool does not wrap still work, and that an
 * MPIX_ name is intercepted the same way (MPIX_Info_merge). */
#include "check.h"

/* Exported by the tool. */
int pmpi_tool_count(const char *name);

static int created(void) { return pmpi_tool_count("MPI_Info_create"); }
static int sets(void) { return pmpi_tool_count("MPI_Info_set"); }
static int gets(void) { return pmpi_tool_count("MPI_Info_get"); }
static int frees(void) { return pmpi_tool_count("MPI_Info_free"); }

/* 1 if the four counters are exactly these. */
static int counts_are(int c, int s, int g, int f) {
    int ok = created() == c && sets() == s && gets() == g && frees() == f;
    if (!ok)
        fprintf(stderr, "  counts: create %d set %d get %d free %d; expected %d %d %d %d\n",
                created(), sets(), gets(), frees(), c, s, g, f);
    return ok;
}

int main(int argc, char **argv) {
    MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL, c = MPI_INFO_NULL, p = MPI_INFO_NULL;
    MPI_Info d = MPI_INFO_NULL, e = MPI_INFO_NULL;
    char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    int flag, n, len;
    (void)argc;
    (void)guarded_end;
    check_start(argv[0]);

    /* Nothing has called the wrapped functions yet, not even the library while loading. */
    CHECK(counts_are(0, 0, 0, 0));

    /* --- calls through the tool ----------------------------------------------------- */
    CHECK_RC(MPI_Info_create(&a), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&b), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&c), MPI_SUCCESS);
    CHECK(a != MPI_INFO_NULL && b != MPI_INFO_NULL && c != MPI_INFO_NULL);
    CHECK(a != b && b != c && a != c);
    CHECK(counts_are(3, 0, 0, 0));

    CHECK_RC(MPI_Info_set(a, "k1", "v1"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(a, "k2", "v2"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(a, "k1", "v1 again"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(b, "only b", "b's value"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(c, "c", ""), MPI_SUCCESS);
    /* errors pass through the tool unchanged, and are counted: the call was made */
    CHECK_RC(MPI_Info_set(a, "", "v"), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);
    CHECK(counts_are(3, 7, 0, 0));

    flag = -1;
    CHECK_RC(MPI_Info_get(a, "k1", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "v1 again") == 0);
    flag = -1;
    CHECK_RC(MPI_Info_get(a, "k2", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "v2") == 0);
    flag = -1;
    CHECK_RC(MPI_Info_get(b, "only b", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "b's value") == 0);
    flag = -1;
    CHECK_RC(MPI_Info_get(c, "c", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "") == 0);
    flag = -1;
    fill_sentinel(value, sizeof value);
    CHECK_RC(MPI_Info_get(b, "k1", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && untouched(value, 0, sizeof value));
    /* truncation still works through the tool */
    flag = -1;
    CHECK_RC(MPI_Info_get(a, "k1", 2, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "v1") == 0);
    CHECK_RC(MPI_Info_get(a, "k1", -1, value, &flag), MPI_ERR_ARG);
    CHECK(counts_are(3, 7, 7, 0));

    /* --- direct PMPI_ calls are not seen by the tool, and work ------------------------- */
    CHECK_RC(PMPI_Info_create(&p), MPI_SUCCESS);
    CHECK(p != MPI_INFO_NULL && p != a && p != b && p != c);
    CHECK_RC(PMPI_Info_set(p, "pk", "pv"), MPI_SUCCESS);
    flag = -1;
    CHECK_RC(PMPI_Info_get(p, "pk", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "pv") == 0);
    /* a PMPI_ set is visible to a wrapped get, and the other way round */
    CHECK_RC(PMPI_Info_set(a, "from pmpi", "x"), MPI_SUCCESS);
    flag = -1;
    CHECK_RC(PMPI_Info_get(b, "only b", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "b's value") == 0);
    CHECK(counts_are(3, 7, 7, 0));
    flag = -1;
    CHECK_RC(MPI_Info_get(a, "from pmpi", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "x") == 0);
    CHECK(counts_are(3, 7, 8, 0));

    /* --- functions the tool does not wrap work, and do not call the wrapped ones ------- */
    CHECK_RC(MPI_Info_get_nkeys(a, &n), MPI_SUCCESS);
    CHECK(n == 3);
    CHECK_RC(MPI_Info_get_nthkey(a, 2, key), MPI_SUCCESS);
    CHECK(strcmp(key, "from pmpi") == 0);
    flag = -1;
    CHECK_RC(MPI_Info_get_valuelen(a, "k1", &len, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && len == 8);
    len = (int)sizeof value;
    flag = -1;
    CHECK_RC(MPI_Info_get_string(a, "k2", &len, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && len == 3 && strcmp(value, "v2") == 0);
    CHECK_RC(MPI_Info_delete(a, "k2"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(a, "k2"), MPI_ERR_INFO_NOKEY);
    /* dup makes an object without calling MPI_Info_create */
    CHECK_RC(MPI_Info_dup(a, &d), MPI_SUCCESS);
    CHECK(d != MPI_INFO_NULL && d != a);
    CHECK_RC(MPI_Info_get_nkeys(d, &n), MPI_SUCCESS);
    CHECK(n == 2);
    /* create_env makes an object without calling MPI_Info_create or MPI_Info_set */
    {
        char prog[] = "prog", arg[] = "arg";
        char *v[] = {prog, arg, NULL};
        CHECK_RC(MPI_Info_create_env(2, v, &e), MPI_SUCCESS);
        len = (int)sizeof value;
        flag = -1;
        CHECK_RC(MPI_Info_get_string(e, "argv", &len, value, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(value, "arg") == 0);
    }
    CHECK_RC(MPI_Info_get_nkeys(MPI_INFO_ENV, &n), MPI_SUCCESS);
    CHECK(n >= 6);
#ifdef MPI_INFO_TEST_ABI
    /* The ABI library has no MPI_Info_c2f/f2c (the standard ABI's mpi_fortran.h makes them
     * macros for these two): the conversions it has, which the tool does not see either. */
    CHECK(MPI_Info_fromint(MPI_Info_toint(a)) == a);
#else
    CHECK(MPI_Info_f2c(MPI_Info_c2f(a)) == a);
#endif
    {
        char message[MPI_MAX_ERROR_STRING];
        CHECK_RC(MPI_Error_string(MPI_ERR_INFO, message, &len), MPI_SUCCESS);
        CHECK(len > 0 && (int)strlen(message) == len);
    }
    CHECK(counts_are(3, 7, 8, 0));

    /* --- an MPIX_ name is wrapped the same way; its PMPIX_ twin is not seen ------------- */
    CHECK(pmpi_tool_count("MPIX_Info_merge") == 0);
    CHECK_RC(MPIX_Info_merge(p, c, 0), MPI_SUCCESS);
    CHECK_RC(PMPIX_Info_merge(p, b, 0), MPI_SUCCESS);
    CHECK_RC(MPIX_Info_merge(MPI_INFO_ENV, c, 0), MPI_ERR_INFO);
    CHECK(pmpi_tool_count("MPIX_Info_merge") == 2);
    CHECK_RC(PMPI_Info_get_nkeys(p, &n), MPI_SUCCESS);
    CHECK(n == 3); /* pk, c, only b */
    CHECK(counts_are(3, 7, 8, 0)); /* merge sets pairs without calling MPI_Info_set */

    /* --- free through the tool ----------------------------------------------------------- */
    {
        MPI_Info stale = a;
        CHECK_RC(MPI_Info_free(&a), MPI_SUCCESS);
        CHECK(a == MPI_INFO_NULL);
        CHECK_RC(MPI_Info_get_nkeys(stale, &n), MPI_ERR_INFO);
        CHECK_RC(MPI_Info_free(&stale), MPI_ERR_INFO); /* counted too */
        /* the dup kept its pairs after the original was freed */
        flag = -1;
        CHECK_RC(PMPI_Info_get(d, "k1", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(value, "v1 again") == 0);
    }
    CHECK_RC(MPI_Info_free(&b), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&c), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    CHECK(counts_are(3, 7, 8, 5));
    CHECK_RC(PMPI_Info_free(&e), MPI_SUCCESS);
    CHECK(e == MPI_INFO_NULL);
    CHECK_RC(PMPI_Info_free(&p), MPI_SUCCESS);
    CHECK(p == MPI_INFO_NULL);
    CHECK_RC(PMPI_Info_get(p, "pk", MPI_MAX_INFO_VAL, value, &flag), MPI_ERR_INFO);
    CHECK(counts_are(3, 7, 8, 5));

    return check_report();
}
