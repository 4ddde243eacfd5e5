/* test_failure.c - MPIX_Info_last_failure, the description of the thread's last failed call
 * (docs/reference.md, "MPIX_Info_last_failure"), and the short class messages.
 *
 * - before any failure the description is empty; a size query (*buflen == 0, NULL buffer)
 *   gives the length plus one and writes nothing;
 * - each argument check names its function, the argument and why: NULL, empty and too long
 *   keys and values, negative lengths, NULL outputs, a position past the last key,
 *   MPI_INFO_NULL, MPI_INFO_ENV where it would change, a freed handle (in the ABI build, a
 *   pointer that is no handle, by its address); the hint checks' vocabulary (NULL, not JSON,
 *   with the byte, not a vocabulary) and targets (unknown, empty, not UTF-8, too long); a
 *   failure with no such detail gives the function and its class's message; the PMPI_ name is
 *   described as the MPI_ one;
 * - successes, the error functions and MPIX_Info_last_failure itself leave it unchanged, and
 *   what they found wrong never shows up in a later failure's description;
 * - a short buffer gets the beginning and a NUL, and nothing after it; the call's own errors
 *   write nothing;
 * - each thread has its own;
 * - the Fortran routines record theirs under their Fortran names (int library only);
 * - every class message is at most 50 bytes, well under the 128 some MPI_MAX_ERROR_STRING is. */
#include "check.h"

#include <pthread.h>
#include <stdint.h>

/* This thread's description, or "<error>" if the call fails. */
static const char *described(void) {
    static char text[512];
    int buflen = (int)sizeof text;
    if (MPIX_Info_last_failure(&buflen, text) != MPI_SUCCESS) return "<error>";
    return text;
}

/* The call fails with `class`, and the description is then exactly `expected`. */
#define CHECK_DESCRIBED(call, class, expected)                                           \
    do {                                                                                 \
        CHECK_RC(call, class);                                                           \
        const char *said_ = described();                                                 \
        if (strcmp(said_, expected) == 0) {                                              \
            check_passed_count++;                                                        \
        } else {                                                                         \
            check_failed_count++;                                                        \
            fprintf(stderr, "%s:%d: described \"%s\", expected \"%s\"\n", __FILE__,    \
                    __LINE__, said_, expected);                                          \
        }                                                                                \
    } while (0)

static void *fail_on_a_thread(void *arg) {
    (void)arg;
    /* A new thread starts with an empty description, whatever the others did. */
    CHECK(strcmp(described(), "") == 0);
    MPI_Info null = MPI_INFO_NULL;
    CHECK_DESCRIBED(MPI_Info_free(&null), MPI_ERR_INFO, "MPI_Info_free: the info handle is MPI_INFO_NULL");
    return NULL;
}

#ifndef MPI_INFO_TEST_ABI
/* The old-style Fortran routine, called as gfortran calls it. */
void mpi_info_set_(const MPI_Fint *info, const char *key, const char *value, MPI_Fint *ierror, size_t key_len,
                   size_t value_len);
#endif

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    char buf[512];
    int flag, buflen, length;

    /* Nothing failed yet. */
    buflen = (int)sizeof buf;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(MPIX_Info_last_failure(&buflen, buf), MPI_SUCCESS);
    CHECK(buflen == 1 && buf[0] == '\0' && untouched(buf, 1, sizeof buf));

    MPI_Info info;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "k", "v"), MPI_SUCCESS);
    char long_key[301], long_value[2001];
    memset(long_key, 'k', 300);
    long_key[300] = '\0';
    memset(long_value, 'v', 2000);
    long_value[2000] = '\0';

    /* Keys and values. */
    CHECK_DESCRIBED(MPI_Info_set(info, long_key, "v"), MPI_ERR_INFO_KEY,
                    "MPI_Info_set: the key is longer than 255 characters, the most a key has");
    CHECK_DESCRIBED(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY, "MPI_Info_set: the key is empty");
    CHECK_DESCRIBED(MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set: the key is NULL");
    CHECK_DESCRIBED(MPI_Info_set(info, "k", NULL), MPI_ERR_INFO_VALUE, "MPI_Info_set: the value is NULL");
    CHECK_DESCRIBED(MPI_Info_set(info, "k", long_value), MPI_ERR_INFO_VALUE,
                    "MPI_Info_set: the value is longer than 1023 characters, the most a value has");
    CHECK_DESCRIBED(PMPI_Info_get_string(info, "", &buflen, buf, &flag), MPI_ERR_INFO_KEY,
                    "MPI_Info_get_string: the key is empty");

    /* Lengths, positions and outputs. */
    CHECK_DESCRIBED(MPI_Info_get(info, "k", -1, buf, &flag), MPI_ERR_ARG,
                    "MPI_Info_get: valuelen is -1, which is negative");
    CHECK_DESCRIBED(MPI_Info_get(info, "k", 10, buf, NULL), MPI_ERR_ARG, "MPI_Info_get: flag is NULL");
    CHECK_DESCRIBED(MPI_Info_get(info, "k", 10, NULL, &flag), MPI_ERR_ARG, "MPI_Info_get: value is NULL");
    buflen = -5;
    CHECK_DESCRIBED(MPI_Info_get_string(info, "k", &buflen, buf, &flag), MPI_ERR_ARG,
                    "MPI_Info_get_string: *buflen is -5, which is negative");
    CHECK_DESCRIBED(MPI_Info_get_nthkey(info, 5, buf), MPI_ERR_ARG,
                    "MPI_Info_get_nthkey: n is 5, and the object has 1 key");
    CHECK_DESCRIBED(MPI_Info_get_nkeys(info, NULL), MPI_ERR_ARG, "MPI_Info_get_nkeys: nkeys is NULL");
    CHECK_DESCRIBED(MPI_Info_dup(info, NULL), MPI_ERR_ARG, "MPI_Info_dup: newinfo is NULL");
    CHECK_DESCRIBED(MPI_Info_create(NULL), MPI_ERR_ARG, "MPI_Info_create: info is NULL");
    CHECK_DESCRIBED(MPIX_Info_get_int(info, "k", NULL, &flag), MPI_ERR_ARG, "MPIX_Info_get_int: value is NULL");

    /* Handles. */
    MPI_Info null = MPI_INFO_NULL;
    CHECK_DESCRIBED(MPI_Info_free(&null), MPI_ERR_INFO, "MPI_Info_free: the info handle is MPI_INFO_NULL");
    CHECK_DESCRIBED(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO,
                    "MPI_Info_set: the info handle is MPI_INFO_ENV, which is read-only");
    MPI_Info dead;
    CHECK_RC(MPI_Info_dup(info, &dead), MPI_SUCCESS);
    int dead_value = MPI_Info_toint(dead);
    CHECK_RC(MPI_Info_free(&dead), MPI_SUCCESS);
    char expected[200];
    snprintf(expected, sizeof expected,
             "MPI_Info_get_nkeys: the info handle %#x names no live object (never created, or freed)",
             (unsigned)dead_value);
    CHECK_DESCRIBED(MPI_Info_get_nkeys(MPI_Info_fromint(dead_value), &length), MPI_ERR_INFO, expected);

#ifdef MPI_INFO_TEST_ABI
    /* A pointer that is no handle at all (a stack address): described by its address. */
    int on_the_stack = 0;
    snprintf(expected, sizeof expected,
             "MPI_Info_get_nkeys: the info handle %#zx names no live object (never created, or freed)",
             (size_t)(uintptr_t)&on_the_stack);
    CHECK_DESCRIBED(MPI_Info_get_nkeys((MPI_Info)(void *)&on_the_stack, &length), MPI_ERR_INFO, expected);
#endif

    /* The hint checks: which argument, and why. */
    MPI_Info found;
    CHECK_DESCRIBED(MPIX_Info_check_with_vocab(info, NULL, NULL, &found), MPI_ERR_ARG,
                    "MPIX_Info_check_with_vocab: vocabulary is NULL");
    CHECK_DESCRIBED(MPIX_Info_check_with_vocab(info, "{\"format\": ", NULL, &found), MPI_ERR_ARG,
                    "MPIX_Info_check_with_vocab: vocabulary is not a vocabulary: not JSON: line 1, column 12 (byte "
                    "11): unexpected end of text");
    CHECK_DESCRIBED(MPIX_Info_check_with_vocab(info, "{\"format\": \"x\", \"version\": 1}", NULL, &found),
                    MPI_ERR_ARG,
                    "MPIX_Info_check_with_vocab: vocabulary is not a vocabulary: \"format\" is \"x\", not "
                    "\"mpi-info-hints\"");
    CHECK_DESCRIBED(MPIX_Info_check(info, "mpich,nosuch", &found), MPI_ERR_ARG,
                    "MPIX_Info_check: targets: no target is named 'nosuch'");
    CHECK_DESCRIBED(MPIX_Info_check(info, "mpich,,openmpi", &found), MPI_ERR_ARG,
                    "MPIX_Info_check: targets: an empty target name");
    CHECK_DESCRIBED(MPIX_Info_check(info, "openmpi@4.1,mpich@four", &found), MPI_ERR_ARG,
                    "MPIX_Info_check: targets: 'mpich@four': a release is main or numbers (4.1, 4.0.2)");
    CHECK_DESCRIBED(MPIX_Info_check(info, "mpich,\xff", &found), MPI_ERR_ARG,
                    "MPIX_Info_check: targets is not UTF-8 (byte 6, 0xff)");
    char long_targets[1100];
    memset(long_targets, 'm', sizeof long_targets - 1);
    long_targets[sizeof long_targets - 1] = '\0';
    CHECK_DESCRIBED(MPIX_Info_check(info, long_targets, &found), MPI_ERR_ARG,
                    "MPIX_Info_check: targets is longer than 1023 bytes");

    /* No detail: the class's message. */
    CHECK_DESCRIBED(MPI_Info_delete(info, "absent"), MPI_ERR_INFO_NOKEY,
                    "MPI_Info_delete: key not in the info object");
    CHECK_DESCRIBED(MPIX_Info_get_int(info, "k", &length, &flag), MPI_ERR_INFO_VALUE,
                    "MPIX_Info_get_int: invalid info value");

    /* A success, the error functions and this function's own errors change nothing. */
    CHECK_RC(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY);
    const char *empty_key = "MPI_Info_set: the key is empty";
    CHECK_RC(MPI_Info_set(info, "k2", "v2"), MPI_SUCCESS);
    CHECK(strcmp(described(), empty_key) == 0);
    CHECK_RC(MPI_Error_string(MPI_ERR_INFO_KEY, NULL, &length), MPI_ERR_ARG);
    CHECK_RC(MPI_Error_string(-12345, buf, &length), MPI_ERR_ARG);
    CHECK_RC(MPI_Error_class(MPI_ERR_ARG, NULL), MPI_ERR_ARG);
    CHECK_RC(MPIX_Info_error_string(MPI_ERR_ARG, buf, NULL), MPI_ERR_ARG);
    CHECK_RC(MPIX_Info_error_class(-1, &length), MPI_ERR_ARG);
    CHECK_RC(MPIX_Info_last_failure(NULL, buf), MPI_ERR_ARG);
    CHECK(strcmp(described(), empty_key) == 0);
    /* What those calls found wrong (a NULL string, a NULL buflen) is not the next failure's
     * description: this one has no detail of its own. */
    CHECK_RC(MPI_Error_string(MPI_SUCCESS, NULL, &length), MPI_ERR_ARG);
    MPI_Info ignored;
    CHECK_DESCRIBED(MPIX_Info_deserialize("not a serialized object", 23, &ignored), MPI_ERR_ARG,
                    "MPIX_Info_deserialize: invalid argument");

    /* A short buffer, a size query, and the call's own errors. */
    CHECK_RC(MPI_Info_create(NULL), MPI_ERR_ARG);
    const char *whole = "MPI_Info_create: info is NULL";
    int whole_size = (int)strlen(whole) + 1;
    fill_sentinel(buf, sizeof buf);
    buflen = 10;
    CHECK_RC(MPIX_Info_last_failure(&buflen, buf), MPI_SUCCESS);
    CHECK(buflen == whole_size && memcmp(buf, whole, 9) == 0 && buf[9] == '\0' && untouched(buf, 10, sizeof buf));
    buflen = 0;
    CHECK_RC(MPIX_Info_last_failure(&buflen, NULL), MPI_SUCCESS);
    CHECK(buflen == whole_size);
    buflen = 1;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(MPIX_Info_last_failure(&buflen, buf), MPI_SUCCESS);
    CHECK(buflen == whole_size && buf[0] == '\0' && untouched(buf, 1, sizeof buf));
    buflen = -1;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(MPIX_Info_last_failure(&buflen, buf), MPI_ERR_ARG);
    CHECK(buflen == -1 && untouched(buf, 0, sizeof buf));
    buflen = 8;
    CHECK_RC(MPIX_Info_last_failure(&buflen, NULL), MPI_ERR_ARG);
    CHECK(buflen == 8);
    CHECK(strcmp(described(), whole) == 0);

    /* Threads: another thread's failures are its own. */
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, fail_on_a_thread, NULL) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(strcmp(described(), whole) == 0);

#ifndef MPI_INFO_TEST_ABI
    /* The Fortran routine: blanks stripped, the exact length known, its Fortran name. */
    char fortran_key[310];
    memset(fortran_key, ' ', sizeof fortran_key);
    memset(fortran_key + 2, 'k', 300);
    MPI_Fint fortran_info = MPI_Info_c2f(info), ierror = -1;
    mpi_info_set_(&fortran_info, fortran_key, "v", &ierror, sizeof fortran_key, 1);
    CHECK(ierror == MPI_ERR_INFO_KEY);
    CHECK(strcmp(described(), "MPI_INFO_SET: a key of 300 characters; the longest is 255") == 0);
    mpi_info_set_(&fortran_info, "   ", "v", &ierror, 3, 1);
    CHECK(ierror == MPI_ERR_INFO_KEY);
    CHECK(strcmp(described(), "MPI_INFO_SET: the key is empty") == 0);
#endif

    /* Short class messages. */
    const int classes[] = {MPI_SUCCESS,        MPI_ERR_ARG,        MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_INFO_KEY,
                           MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO,  MPI_ERR_NO_MEM};
    int longest = 0;
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        CHECK_RC(MPI_Error_string(classes[i], buf, &length), MPI_SUCCESS);
        CHECK(length == (int)strlen(buf));
        if (length > longest) longest = length;
    }
    CHECK(longest == 50);

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    return check_report();
}
