/* check.h - the C suite's small test harness.
 *
 * Each test program includes this once, calls CHECK/CHECK_RC as often as it likes and ends
 * main() with `return check_report();`, which prints "<program>: N passed, M failed" as its
 * last line. tests-c/run-suite.sh adds those lines up. */
#ifndef CHECK_H
#define CHECK_H

#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The same test sources build against either library: with MPI_INFO_TEST_ABI defined, against
 * the standard ABI build's header (MPI_Info a pointer), else against mpi_info.h (an int). A
 * program written against an mpi.h (tests-c/abi_program.c) includes that first, and no other. */
#if defined(MPI_VERSION)
#elif defined(MPI_INFO_TEST_ABI)
#include "mpi_info_abi.h"
#else
#include "mpi_info.h"
#endif

/* Where a test forges a handle from an integer, prints handles, sorts them or compares them as
 * numbers, it goes through MPI_Info_fromint and MPI_Info_toint: the identity in the int
 * library; in the ABI library exact for every handle it gives out, MPI_INFO_NULL and
 * MPI_INFO_ENV, while a negative int becomes an address with the high bits set and an address
 * that is no int becomes -1, neither of which is an object (as a negative int is none in the
 * int library). */

/* The codes the library answers: MPI_SUCCESS and the eight error classes, each with the number
 * the standard ABI gives it and its name (which its message starts with). The one table of them:
 * test_errors.c, abi_program.c and host/app.c read it, whichever header declared the names. */
static const struct {
    int code;       /* the header's constant */
    int number;     /* what the constant must be */
    const char *name;
} ERROR_CODES[] = {
    {MPI_SUCCESS, 0, "MPI_SUCCESS"},
    {MPI_ERR_ARG, 13, "MPI_ERR_ARG"},
    {MPI_ERR_OTHER, 16, "MPI_ERR_OTHER"},
    {MPI_ERR_INTERN, 17, "MPI_ERR_INTERN"},
    {MPI_ERR_INFO_KEY, 31, "MPI_ERR_INFO_KEY"},
    {MPI_ERR_INFO_NOKEY, 32, "MPI_ERR_INFO_NOKEY"},
    {MPI_ERR_INFO_VALUE, 33, "MPI_ERR_INFO_VALUE"},
    {MPI_ERR_INFO, 34, "MPI_ERR_INFO"},
    {MPI_ERR_NO_MEM, 39, "MPI_ERR_NO_MEM"},
};
#define N_ERROR_CODES ((int)(sizeof ERROR_CODES / sizeof ERROR_CODES[0]))

static int check_passed_count, check_failed_count;
static const char *check_program = "test";

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (cond) {                                                                      \
            check_passed_count++;                                                        \
        } else {                                                                         \
            check_failed_count++;                                                        \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
        }                                                                                \
    } while (0)

/* CHECK_RC(call, expected): the call returns exactly `expected` (an MPI error class). */
#define CHECK_RC(call, expected)                                                         \
    do {                                                                                 \
        int check_rc_ = (call);                                                          \
        int check_expected_ = (expected);                                                \
        if (check_rc_ == check_expected_) {                                              \
            check_passed_count++;                                                        \
        } else {                                                                         \
            check_failed_count++;                                                        \
            fprintf(stderr, "%s:%d: %s returned %d, expected %d (%s)\n", __FILE__,       \
                    __LINE__, #call, check_rc_, check_expected_, #expected);             \
        }                                                                                \
    } while (0)

/* Call first in main() so failures name the program. */
static inline void check_start(const char *program) {
    const char *slash = strrchr(program, '/');
    check_program = slash ? slash + 1 : program;
}

static inline int check_report(void) {
    printf("%s: %d passed, %d failed\n", check_program, check_passed_count, check_failed_count);
    return check_failed_count != 0;
}

/* Sentinels: fill a buffer with a byte the library never writes (0xA5), then check which
 * bytes changed. */
#define SENTINEL ((char)0xA5)

static inline void fill_sentinel(void *buf, size_t n) { memset(buf, 0xA5, n); }

/* 1 if bytes [from, to) of buf still hold the sentinel. */
static inline int untouched(const void *buf, size_t from, size_t to) {
    const unsigned char *b = (const unsigned char *)buf;
    for (size_t i = from; i < to; i++)
        if (b[i] != 0xA5) return 0;
    return 1;
}

/* Memory whose last byte is followed by an inaccessible page: reading one byte past
 * `guarded_end(n)` + n faults. Returns a pointer p such that p[0..n) is readable and
 * writable and p[n] is not mapped. */
static inline char *guarded_end(size_t n) {
    long page = sysconf(_SC_PAGESIZE);
    size_t span = ((n + (size_t)page - 1) / (size_t)page) * (size_t)page;
    char *base = (char *)mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    if (mprotect(base + span, (size_t)page, PROT_NONE) != 0) {
        perror("mprotect");
        exit(2);
    }
    return base + span - n;
}

#endif
