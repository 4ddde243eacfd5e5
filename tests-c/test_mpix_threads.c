/* test_mpix_threads.c - the MPIX_ calls from many threads at once, on the same objects.
 *
 * Two objects, A and B, hold the keys k0..k15 with decimal integers as values, and "on" with a
 * boolean. While one thread keeps setting those keys in both objects to new integers and
 * booleans:
 *   - one thread merges B into A and another A into B, at the same time: a call that held one
 *     object's lock while it waited for the other's would deadlock here (the alarm below turns
 *     a deadlock into a failure);
 *   - one thread merges A into itself (which must change nothing: a merge of an earlier
 *     snapshot would write an old value over the setter's) and compares A with B and with
 *     itself (MPIX_Info_equal, ordered and not: A is always equal to itself);
 *   - one thread reads every key of A as an integer and "on" as a boolean: each read must find
 *     the key and a whole value of its type, never MPI_ERR_INFO_VALUE from a value half set;
 *   - one thread serializes A and deserializes the bytes into a new object, which must hold
 *     exactly the keys A always holds, each with a whole value.
 * Iteration counts are divided by 20 under valgrind (MPI_INFO_UNDER_VALGRIND). */
#include "mpix_support.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#define NKEYS 16
#define DEADLINE_SECONDS 300

static MPI_Info a, b;
static int rounds = 20000;

static void key_name(int j, char *out) { snprintf(out, 16, "k%d", j); }

static void *setter(void *arg) {
    record *r = arg;
    char key[16], value[32];
    for (int i = 0; i < rounds; i++) {
        int j = i % NKEYS;
        key_name(j, key);
        snprintf(value, sizeof value, "%d", 1000000 + i);
        int rc = MPI_Info_set(i % 2 ? a : b, key, value);
        EXPECT(r, rc == MPI_SUCCESS, rc);
        rc = MPIX_Info_set_bool(i % 2 ? b : a, "on", i % 3 == 0);
        EXPECT(r, rc == MPI_SUCCESS, rc);
    }
    return r;
}

static void *merger_into_a(void *arg) {
    record *r = arg;
    for (int i = 0; i < rounds; i++) {
        int rc = MPIX_Info_merge(a, b, i % 2);
        EXPECT(r, rc == MPI_SUCCESS, rc);
    }
    return r;
}

static void *merger_into_b(void *arg) {
    record *r = arg;
    for (int i = 0; i < rounds; i++) {
        int rc = MPIX_Info_merge(b, a, i % 2);
        EXPECT(r, rc == MPI_SUCCESS, rc);
    }
    return r;
}

static void *self_and_equal(void *arg) {
    record *r = arg;
    for (int i = 0; i < rounds; i++) {
        int rc = MPIX_Info_merge(a, a, 1);
        EXPECT(r, rc == MPI_SUCCESS, rc);
        int equal = -1;
        rc = MPIX_Info_equal(a, b, i % 2, &equal);
        EXPECT(r, rc == MPI_SUCCESS && (equal == 0 || equal == 1), rc);
        rc = MPIX_Info_equal(a, a, 1, &equal);
        EXPECT(r, rc == MPI_SUCCESS && equal == 1, rc);
    }
    return r;
}

static void *typed_reader(void *arg) {
    record *r = arg;
    char key[16];
    for (int i = 0; i < rounds; i++) {
        int value = -1, flag = -1;
        key_name(i % NKEYS, key);
        int rc = MPIX_Info_get_int(a, key, &value, &flag);
        EXPECT(r, rc == MPI_SUCCESS && flag == 1 && value >= 1000000 && value < 1000000 + rounds + NKEYS, rc);
        int on = -1;
        rc = MPIX_Info_get_bool(a, "on", &on, &flag);
        EXPECT(r, rc == MPI_SUCCESS && flag == 1 && (on == 0 || on == 1), rc);
    }
    return r;
}

static void *serializer(void *arg) {
    record *r = arg;
    static char buf[8192];
    char key[MPI_MAX_INFO_KEY];
    for (int i = 0; i < rounds / 4; i++) {
        int size = (int)sizeof buf;
        int rc = MPIX_Info_serialize(a, &size, buf);
        EXPECT(r, rc == MPI_SUCCESS && size > 0 && size <= (int)sizeof buf, rc);
        if (rc != MPI_SUCCESS || size <= 0 || size > (int)sizeof buf) continue;
        MPI_Info copy = MPI_INFO_NULL;
        rc = MPIX_Info_deserialize(buf, size, &copy);
        EXPECT(r, rc == MPI_SUCCESS, rc);
        if (rc != MPI_SUCCESS) continue;
        int n = -1;
        rc = MPI_Info_get_nkeys(copy, &n);
        EXPECT(r, rc == MPI_SUCCESS && n == NKEYS + 1, n);
        for (int k = 0; k < n; k++) {
            int value, flag = 0;
            rc = MPI_Info_get_nthkey(copy, k, key);
            EXPECT(r, rc == MPI_SUCCESS, rc);
            rc = strcmp(key, "on") == 0 ? MPIX_Info_get_bool(copy, key, &value, &flag)
                                        : MPIX_Info_get_int(copy, key, &value, &flag);
            EXPECT(r, rc == MPI_SUCCESS && flag == 1, rc);
        }
        rc = MPI_Info_free(&copy);
        EXPECT(r, rc == MPI_SUCCESS, rc);
    }
    return r;
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    if (getenv("MPI_INFO_UNDER_VALGRIND")) rounds /= 20;
    /* A deadlock would otherwise hang the suite: SIGALRM ends the program, which fails it. */
    alarm(DEADLINE_SECONDS);

    char key[16], value[32];
    CHECK_RC(MPI_Info_create(&a), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&b), MPI_SUCCESS);
    for (int j = 0; j < NKEYS; j++) {
        key_name(j, key);
        snprintf(value, sizeof value, "%d", 1000000 + j);
        CHECK_RC(MPI_Info_set(a, key, value), MPI_SUCCESS);
        CHECK_RC(MPI_Info_set(b, key, value), MPI_SUCCESS);
    }
    CHECK_RC(MPIX_Info_set_bool(a, "on", 1), MPI_SUCCESS);
    CHECK_RC(MPIX_Info_set_bool(b, "on", 0), MPI_SUCCESS);

    void *(*bodies[])(void *) = {setter, merger_into_a, merger_into_b, self_and_equal, typed_reader, serializer};
    enum { NTHREADS = sizeof bodies / sizeof bodies[0] };
    pthread_t threads[NTHREADS];
    record records[NTHREADS];
    memset(records, 0, sizeof records);
    for (int t = 0; t < NTHREADS; t++)
        if (pthread_create(&threads[t], NULL, bodies[t], &records[t]) != 0) return 2;
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK(records[t].failures == 0);
        if (records[t].failures)
            fprintf(stderr, "thread %d: %d failures, the first at line %d (returned %d)\n", t,
                    records[t].failures, records[t].line, records[t].rc);
    }

    /* Both objects still hold exactly the keys they always held. */
    int n = -1;
    CHECK_RC(MPI_Info_get_nkeys(a, &n), MPI_SUCCESS);
    CHECK(n == NKEYS + 1);
    CHECK_RC(MPI_Info_get_nkeys(b, &n), MPI_SUCCESS);
    CHECK(n == NKEYS + 1);
    CHECK_RC(MPI_Info_free(&a), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&b), MPI_SUCCESS);
    return check_report();
}
