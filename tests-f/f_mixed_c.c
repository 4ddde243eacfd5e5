/* f_mixed_c.c - the C half of tests-f/f_mixed.f90: objects made in Fortran read in C and the
 * other way round, the classes C returns for the cases Fortran checks, and checks that call
 * the old-style routines from C exactly as a Fortran compiler does (pointers, hidden lengths),
 * with strings that end right before a page that cannot be read or written, so that reading
 * or writing one byte past a declared length would crash. */
#include "check.h"

/* The old-style routines, as Fortran calls them (src/capi/fortran.rs). */
void mpi_info_create_(MPI_Fint *info, MPI_Fint *ierror);
void mpi_info_set_(const MPI_Fint *info, const char *key, const char *value, MPI_Fint *ierror,
                   size_t key_len, size_t value_len);
void pmpi_info_set_(const MPI_Fint *info, const char *key, const char *value, MPI_Fint *ierror,
                    size_t key_len, size_t value_len);
void mpi_info_get_(const MPI_Fint *info, const char *key, const MPI_Fint *valuelen, char *value,
                   MPI_Fint *flag, MPI_Fint *ierror, size_t key_len, size_t value_len);
void mpi_info_get_string_(const MPI_Fint *info, const char *key, MPI_Fint *buflen, char *value,
                          MPI_Fint *flag, MPI_Fint *ierror, size_t key_len, size_t value_len);
void mpi_info_get_nthkey_(const MPI_Fint *info, const MPI_Fint *n, char *key, MPI_Fint *ierror,
                          size_t key_len);
void mpi_info_get_nkeys_(const MPI_Fint *info, MPI_Fint *nkeys, MPI_Fint *ierror);
void mpi_info_free_(MPI_Fint *info, MPI_Fint *ierror);
void mpi_error_string_(const MPI_Fint *code, char *string, MPI_Fint *resultlen, MPI_Fint *ierror,
                       size_t string_len);

int c_has(MPI_Fint info, const char *key, const char *expected);
int c_nkeys(MPI_Fint info);
int c_rc_set(MPI_Fint info, const char *key, const char *value);
MPI_Fint c_make(void);
MPI_Fint c_roundtrip(MPI_Fint info);
int c_free(MPI_Fint *info);
int c_message_is(int code, const char *string, int resultlen);
void c_abi_checks(int *passed, int *failed);

/* 1 if C's MPI_Info_get finds `key` in the object with exactly the value `expected`. */
int c_has(MPI_Fint info, const char *key, const char *expected) {
    char value[MPI_MAX_INFO_VAL];
    int flag = 0;
    if (MPI_Info_get(MPI_Info_f2c(info), key, MPI_MAX_INFO_VAL - 1, value, &flag) != MPI_SUCCESS)
        return 0;
    return flag == 1 && strcmp(value, expected) == 0;
}

/* The number of pairs, or minus the class of the error. */
int c_nkeys(MPI_Fint info) {
    int n = -1, rc = MPI_Info_get_nkeys(MPI_Info_f2c(info), &n);
    return rc == MPI_SUCCESS ? n : -rc;
}

int c_rc_set(MPI_Fint info, const char *key, const char *value) {
    return MPI_Info_set(MPI_Info_f2c(info), key, value);
}

/* An object made in C, with blanks that C keeps: a value with leading and trailing blanks,
 * and a key with a trailing blank (which no Fortran string can name: blanks are stripped). */
MPI_Fint c_make(void) {
    MPI_Info info = MPI_INFO_NULL;
    if (MPI_Info_create(&info) != MPI_SUCCESS) return MPI_INFO_NULL;
    MPI_Info_set(info, "c key", "  kept blanks  ");
    MPI_Info_set(info, "trailing ", "t");
    MPI_Info_set(info, "plain", "p");
    return MPI_Info_c2f(info);
}

MPI_Fint c_roundtrip(MPI_Fint info) { return MPI_Info_c2f(MPI_Info_f2c(info)); }

int c_free(MPI_Fint *info) {
    MPI_Info handle = MPI_Info_f2c(*info);
    int rc = MPI_Info_free(&handle);
    *info = MPI_Info_c2f(handle);
    return rc;
}

/* 1 if the first `resultlen` characters Fortran got are C's message for `code`, whole. */
int c_message_is(int code, const char *string, int resultlen) {
    char message[MPI_MAX_ERROR_STRING];
    int length = -1;
    if (MPI_Error_string(code, message, &length) != MPI_SUCCESS) return 0;
    return length == resultlen && memcmp(message, string, (size_t)length) == 0;
}

/* A string of exactly `text`'s length, no NUL, ending at the last readable byte. */
static char *at_end(const char *text) {
    size_t n = strlen(text);
    char *s = guarded_end(n);
    memcpy(s, text, n);
    return s;
}

void c_abi_checks(int *passed, int *failed) {
    MPI_Fint info = -7, ierr = -7, flag = -7, n, len, rc;
    char *key, *value, *out;

    mpi_info_create_(&info, &ierr);
    CHECK(ierr == MPI_SUCCESS && info >= 4096);

    /* Inputs end at the last readable byte: read within the hidden length, stripped. */
    key = at_end("  guarded key ");
    value = at_end(" guarded  value ");
    mpi_info_set_(&info, key, value, &ierr, strlen("  guarded key "), strlen(" guarded  value "));
    CHECK(ierr == MPI_SUCCESS);
    CHECK(c_has(info, "guarded key", "guarded  value"));
    /* A declared length shorter than the text: only that much is the string. */
    mpi_info_set_(&info, key, value, &ierr, 9, 8);
    CHECK(ierr == MPI_SUCCESS && c_has(info, "guarded", "guarded"));
    /* The longest key, 255 characters and blanks, ending at the guard. */
    {
        char *longkey = guarded_end(258);
        memset(longkey, 'k', 255);
        memset(longkey + 255, ' ', 3);
        mpi_info_set_(&info, longkey, value, &ierr, 258, 1);
        CHECK(ierr == MPI_SUCCESS);
        mpi_info_set_(&info, longkey, value, &ierr, 258, 0);
        CHECK(ierr == MPI_SUCCESS);
        longkey = guarded_end(256);
        memset(longkey, 'k', 256);
        mpi_info_set_(&info, longkey, value, &ierr, 256, 1);
        CHECK(ierr == MPI_ERR_INFO_KEY);
    }
    CHECK(c_nkeys(info) == 3);

    /* Outputs end at the last writable byte: written within the hidden length, padded. */
    out = guarded_end(20);
    fill_sentinel(out, 20);
    n = 1000;
    mpi_info_get_(&info, "guarded key", &n, out, &flag, &ierr, strlen("guarded key"), 20);
    CHECK(ierr == MPI_SUCCESS && flag == 1);
    CHECK(memcmp(out, "guarded  value      ", 20) == 0);
    out = guarded_end(5);
    n = 1000;
    mpi_info_get_(&info, "guarded key", &n, out, &flag, &ierr, strlen("guarded key"), 5);
    CHECK(ierr == MPI_SUCCESS && memcmp(out, "guard", 5) == 0);
    /* .FALSE. is 0, .TRUE. is 1, as gfortran has them. */
    flag = -7;
    mpi_info_get_(&info, "nope", &n, out, &flag, &ierr, 4, 5);
    CHECK(ierr == MPI_SUCCESS && flag == 0 && memcmp(out, "guard", 5) == 0);
    out = guarded_end(7);
    len = 100;
    mpi_info_get_string_(&info, "guarded key", &len, out, &flag, &ierr, strlen("guarded key"), 7);
    CHECK(ierr == MPI_SUCCESS && flag == 1 && len == 14 && memcmp(out, "guarded", 7) == 0);
    out = guarded_end(11);
    n = 0;
    mpi_info_get_nthkey_(&info, &n, out, &ierr, 11);
    CHECK(ierr == MPI_SUCCESS && memcmp(out, "guarded key", 11) == 0);
    out = guarded_end(3);
    rc = MPI_ERR_INFO;
    mpi_error_string_(&rc, out, &len, &ierr, 3);
    CHECK(ierr == MPI_SUCCESS && len == 3 && memcmp(out, "MPI", 3) == 0);

    /* Zero-length strings are never read, whatever their pointer. */
    mpi_info_set_(&info, NULL, "v", &ierr, 0, 1);
    CHECK(ierr == MPI_ERR_INFO_KEY);
    mpi_info_set_(&info, "empty", NULL, &ierr, 5, 0);
    CHECK(ierr == MPI_SUCCESS && c_has(info, "empty", ""));
    n = 5;
    mpi_info_get_(&info, "empty", &n, NULL, &flag, &ierr, 5, 0);
    CHECK(ierr == MPI_SUCCESS && flag == 1);

    /* What no Fortran caller passes, but C could: NULL references. */
    mpi_info_set_(&info, NULL, "v", &ierr, 3, 1);
    CHECK(ierr == MPI_ERR_INFO_KEY);
    mpi_info_set_(&info, "k", NULL, &ierr, 1, 1);
    CHECK(ierr == MPI_ERR_INFO_VALUE);
    mpi_info_set_(NULL, "k", "v", &ierr, 1, 1);
    CHECK(ierr == MPI_ERR_INFO);
    mpi_info_get_(&info, "empty", NULL, out, &flag, &ierr, 5, 3);
    CHECK(ierr == MPI_ERR_ARG);
    mpi_info_get_(&info, "empty", &n, NULL, &flag, &ierr, 5, 3);
    CHECK(ierr == MPI_ERR_ARG);
    mpi_info_get_(&info, "empty", &n, out, NULL, &ierr, 5, 3);
    CHECK(ierr == MPI_ERR_ARG);
    mpi_info_get_nkeys_(&info, NULL, &ierr);
    CHECK(ierr == MPI_ERR_ARG);
    mpi_info_free_(NULL, &ierr);
    CHECK(ierr == MPI_ERR_ARG);
    /* No IERROR: the call still runs, and reports nothing. */
    pmpi_info_set_(&info, "no ierror", "x", NULL, 9, 1);
    CHECK(c_has(info, "no ierror", "x"));
    CHECK(c_nkeys(info) == 5);

    mpi_info_free_(&info, &ierr);
    CHECK(ierr == MPI_SUCCESS && info == MPI_INFO_NULL);
    *passed = check_passed_count;
    *failed = check_failed_count;
}
