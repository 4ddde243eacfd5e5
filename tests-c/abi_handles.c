/* abi_handles.c - the handles of the standard ABI build (libmpi_info_abi only).
 *
 * - MPI_Info is a pointer. Every handle the library creates (create, dup, create_env and
 *   deserialize, by their MPI_ and PMPI_ names: 12,000 of them, freed and created again so that
 *   slots come back with a new generation) is an address of at least 0x1000 (everything below
 *   is reserved for the standard ABI's predefined handles), none of the predefined handles of
 *   any kind, distinct from every other live handle, and MPI_Info_toint/fromint convert it
 *   exactly; so they do MPI_INFO_NULL (304) and MPI_INFO_ENV (305).
 * - Values that name no object are MPI_ERR_INFO from every function that takes a handle, with
 *   the outputs untouched and no live object changed: every value below 0x1000 (the predefined
 *   handles of every kind, MPI_INFO_NULL, 0; MPI_INFO_ENV answers the reads and refuses every
 *   write), freed handles (also those whose slot holds a newer object: the generation check),
 *   live handles and MPI_INFO_ENV with a high bit set, ~0, heap, stack and static addresses,
 *   and addresses of PROT_NONE pages. The probe and the fixtures are tests-c/handle_probe.h's,
 *   which tests-c/test_handles.c runs on the values an int can have, against both libraries.
 * - A handle is never dereferenced: live objects whose handles are the addresses of PROT_NONE
 *   pages work as any other.
 * - Both libraries in one process: libmpi_info.so and libmpi_info_abi.so (INT_LIBRARY and
 *   ABI_LIBRARY, set by the Makefile) opened with dlopen and RTLD_LOCAL, both new to the
 *   process, give out the same handle numbers, and each keeps its own objects under them. */
#include "handle_probe.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>

#ifndef MPI_INFO_TEST_ABI
#error "abi_handles.c tests the standard ABI build: compile it with -DMPI_INFO_TEST_ABI"
#endif

static MPI_Info at(uintptr_t address) { return (MPI_Info)address; }
static uintptr_t address(MPI_Info h) { return (uintptr_t)h; }

/* The MPI-5.0 standard ABI's predefined handles, by kind: [first, last]. */
static const struct {
    const char *kind;
    uintptr_t first, last;
} PREDEFINED[] = {
    {"MPI_Op", 0x020, 0x03d},         {"MPI_Comm", 0x100, 0x102},
    {"MPI_Group", 0x108, 0x109},      {"MPI_Win", 0x110, 0x110},
    {"MPI_File", 0x118, 0x118},       {"MPI_Session", 0x120, 0x120},
    {"MPI_Message", 0x128, 0x129},    {"MPI_Info", 0x130, 0x131},
    {"MPI_Errhandler", 0x140, 0x143}, {"MPI_Request", 0x180, 0x180},
    {"MPI_Datatype", 0x200, 0x2eb},
};
#define RESERVED 0x1000 /* every predefined handle is below */

static int predefined(MPI_Info h) {
    for (size_t i = 0; i < sizeof PREDEFINED / sizeof PREDEFINED[0]; i++)
        if (address(h) >= PREDEFINED[i].first && address(h) <= PREDEFINED[i].last) return 1;
    return 0;
}

/* ---------------------------------------------------------------- live objects */

/* The objects the churn keeps live, each holding "id" = the number of its creation. */
#define LIVE 1000
#define CREATIONS 12000
static MPI_Info pool[LIVE];
static int pool_id[LIVE];
static MPI_Info stale[CREATIONS];
static int nstale;

static int is_live(MPI_Info h) {
    for (int i = 0; i < NFIX; i++)
        if (fix[i] == h) return 1;
    for (int i = 0; i < LIVE; i++)
        if (pool[i] == h) return 1;
    return 0;
}

/* 1 if pool[s] still holds its own "id". */
static int holds_own_id(int s) {
    char value[16], expect[16];
    int flag = 0;
    snprintf(expect, sizeof expect, "%d", pool_id[s]);
    return MPI_Info_get(pool[s], "id", 15, value, &flag) == MPI_SUCCESS && flag == 1 &&
           strcmp(value, expect) == 0;
}

/* ---------------------------------------------------------------- both libraries at once */

/* The calls of one instance of each library, looked up with dlsym. */
struct int_library {
    int (*create)(int *);
    int (*set)(int, const char *, const char *);
    int (*get)(int, const char *, int, char *, int *);
    int (*get_nkeys)(int, int *);
    int (*free_)(int *);
};
struct abi_library {
    int (*create)(MPI_Info *);
    int (*set)(MPI_Info, const char *, const char *);
    int (*get)(MPI_Info, const char *, int, char *, int *);
    int (*get_nkeys)(MPI_Info, int *);
    int (*free_)(MPI_Info *);
    int (*toint)(MPI_Info);
};

static void *open_library(const char *path) {
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        exit(2);
    }
    return dl;
}

/* Stores the address of `name` in dl at *slot (a function pointer). */
static void look_up(void *dl, const char *name, void *slot) {
    void *found = dlsym(dl, name);
    if (!found) {
        fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
        exit(2);
    }
    memcpy(slot, &found, sizeof found);
}

/* 1 if the object holds exactly one pair, "lib" = want. */
static int int_holds(const struct int_library *lib, int h, const char *want) {
    char value[64];
    int flag = 0, n = -1;
    return lib->get_nkeys(h, &n) == MPI_SUCCESS && n == 1 &&
           lib->get(h, "lib", 63, value, &flag) == MPI_SUCCESS && flag == 1 &&
           strcmp(value, want) == 0;
}

static int abi_holds(const struct abi_library *lib, MPI_Info h, const char *want) {
    char value[64];
    int flag = 0, n = -1;
    return lib->get_nkeys(h, &n) == MPI_SUCCESS && n == 1 &&
           lib->get(h, "lib", 63, value, &flag) == MPI_SUCCESS && flag == 1 &&
           strcmp(value, want) == 0;
}

#define PAIRS 8

/* Run before anything else has used the ABI library, so that both instances are new. */
static void test_both_libraries(void) {
    void *int_dl = open_library(INT_LIBRARY), *abi_dl = open_library(ABI_LIBRARY);
    struct int_library il;
    struct abi_library al;
    look_up(int_dl, "MPI_Info_create", &il.create);
    look_up(int_dl, "MPI_Info_set", &il.set);
    look_up(int_dl, "MPI_Info_get", &il.get);
    look_up(int_dl, "MPI_Info_get_nkeys", &il.get_nkeys);
    look_up(int_dl, "MPI_Info_free", &il.free_);
    look_up(abi_dl, "MPI_Info_create", &al.create);
    look_up(abi_dl, "MPI_Info_set", &al.set);
    look_up(abi_dl, "MPI_Info_get", &al.get);
    look_up(abi_dl, "MPI_Info_get_nkeys", &al.get_nkeys);
    look_up(abi_dl, "MPI_Info_free", &al.free_);
    look_up(abi_dl, "MPI_Info_toint", &al.toint);

    int ih[PAIRS];
    MPI_Info ah[PAIRS];
    char want[32];
    int created = 1, same_numbers = 0, set_ok = 1;
    for (int k = 0; k < PAIRS; k++) {
        if (il.create(&ih[k]) != MPI_SUCCESS || al.create(&ah[k]) != MPI_SUCCESS) {
            created = 0;
            break;
        }
        if (al.toint(ah[k]) == ih[k]) same_numbers++;
        snprintf(want, sizeof want, "int #%d", k);
        if (il.set(ih[k], "lib", want) != MPI_SUCCESS) set_ok = 0;
        snprintf(want, sizeof want, "abi #%d", k);
        if (al.set(ah[k], "lib", want) != MPI_SUCCESS) set_ok = 0;
    }
    CHECK(created);
    if (!created) exit(2);
    CHECK(set_ok);
    /* What makes the rest a test: the same numbers name an object in each library. */
    CHECK(same_numbers == PAIRS);

    int own = 1;
    for (int k = 0; k < PAIRS; k++) {
        snprintf(want, sizeof want, "int #%d", k);
        if (!int_holds(&il, ih[k], want)) own = 0;
        snprintf(want, sizeof want, "abi #%d", k);
        if (!abi_holds(&al, ah[k], want)) own = 0;
    }
    CHECK(own);

    /* Freeing in one leaves the other's objects, under the same numbers, as they were. */
    {
        int freed = 1, dead = 1, kept = 1;
        for (int k = 0; k < PAIRS; k += 2) {
            int h = ih[k], n = S32;
            if (il.free_(&h) != MPI_SUCCESS) freed = 0;
            if (il.get_nkeys(ih[k], &n) != MPI_ERR_INFO || n != S32) dead = 0;
        }
        for (int k = 1; k < PAIRS; k += 2) {
            MPI_Info h = ah[k];
            int n = S32;
            if (al.free_(&h) != MPI_SUCCESS) freed = 0;
            if (al.get_nkeys(ah[k], &n) != MPI_ERR_INFO || n != S32) dead = 0;
        }
        for (int k = 0; k < PAIRS; k++) {
            snprintf(want, sizeof want, k % 2 ? "int #%d" : "abi #%d", k);
            if (k % 2 ? !int_holds(&il, ih[k], want) : !abi_holds(&al, ah[k], want)) kept = 0;
        }
        CHECK(freed);
        CHECK(dead);
        CHECK(kept);
    }
    /* MPI_INFO_ENV is in both. */
    {
        int ni = -1, na = -1;
        CHECK_RC(il.get_nkeys(305, &ni), MPI_SUCCESS);
        CHECK_RC(al.get_nkeys(MPI_INFO_ENV, &na), MPI_SUCCESS);
        CHECK(ni == na && ni >= 4);
    }
    for (int k = 0; k < PAIRS; k++) {
        if (k % 2)
            CHECK_RC(il.free_(&ih[k]), MPI_SUCCESS);
        else
            CHECK_RC(al.free_(&ah[k]), MPI_SUCCESS);
    }
    dlclose(int_dl);
    dlclose(abi_dl);
}

/* ---------------------------------------------------------------- created handles */

/* 1 if h, just created, is a good user handle: an address from RESERVED to INT_MAX, no
 * predefined handle, that toint/fromint (and their PMPI_ names) convert exactly. */
static int good_new_handle(MPI_Info h) {
    int as_int = MPI_Info_toint(h);
    return address(h) >= RESERVED && address(h) <= INT_MAX && !predefined(h) &&
           h != MPI_INFO_NULL && h != MPI_INFO_ENV && as_int == (int)address(h) &&
           PMPI_Info_toint(h) == as_int && MPI_Info_fromint(as_int) == h &&
           PMPI_Info_fromint(as_int) == h;
}

static int cmp_address(const void *a, const void *b) {
    uintptr_t x = address(*(const MPI_Info *)a), y = address(*(const MPI_Info *)b);
    return (x > y) - (x < y);
}

/* The slot a handle names: its low 20 bits (a handle is generation << 20 | slot). */
static uintptr_t slot_of(MPI_Info h) { return address(h) & 0xFFFFF; }

static void test_created_handles(void) {
    unsigned char *bytes;
    int nbytes = 0;
    char prog[] = "prog", arg[] = "arg";
    char *args[] = {prog, arg, NULL};
    long bad = 0, create_fail = 0, free_fail = 0, set_fail = 0;

    CHECK_RC(MPIX_Info_serialize(fix[1], &nbytes, NULL), MPI_SUCCESS);
    bytes = (unsigned char *)malloc((size_t)nbytes);
    if (!bytes) exit(2);
    CHECK_RC(MPIX_Info_serialize(fix[1], &nbytes, bytes), MPI_SUCCESS);

    for (int i = 0; i < CREATIONS; i++) {
        int s = i % LIVE, rc;
        MPI_Info h = SENT_HANDLE;
        char id[16];
        if (i >= LIVE) {
            stale[nstale++] = pool[s];
            if (MPI_Info_free(&pool[s]) != MPI_SUCCESS) free_fail++;
        }
        switch (i % 8) {
        case 0: rc = MPI_Info_create(&h); break;
        case 1: rc = PMPI_Info_create(&h); break;
        case 2: rc = MPI_Info_dup(fix[0], &h); break;
        case 3: rc = PMPI_Info_dup(MPI_INFO_ENV, &h); break;
        case 4: rc = MPI_Info_create_env(2, args, &h); break;
        case 5: rc = PMPI_Info_create_env(0, NULL, &h); break;
        case 6: rc = MPIX_Info_deserialize(bytes, nbytes, &h); break;
        default: rc = PMPIX_Info_deserialize(bytes, nbytes, &h); break;
        }
        if (rc != MPI_SUCCESS) {
            create_fail++;
            pool[s] = MPI_INFO_NULL;
            continue;
        }
        if (!good_new_handle(h)) {
            if (bad == 0) fprintf(stderr, "  creation #%d gave the handle %p\n", i, (void *)h);
            bad++;
        }
        snprintf(id, sizeof id, "%d", i);
        if (MPI_Info_set(h, "id", id) != MPI_SUCCESS) set_fail++;
        pool[s] = h;
        pool_id[s] = i;
    }
    CHECK(create_fail == 0);
    CHECK(free_fail == 0);
    CHECK(set_fail == 0);
    CHECK(bad == 0);
    free(bytes);

    /* The live handles are distinct, from each other and from the fixtures, and each object
     * holds its own "id". */
    {
        MPI_Info sorted[LIVE + NFIX];
        int distinct = 1, own = 1;
        memcpy(sorted, pool, sizeof pool);
        memcpy(sorted + LIVE, fix, sizeof fix);
        qsort(sorted, LIVE + NFIX, sizeof sorted[0], cmp_address);
        for (int i = 1; i < LIVE + NFIX; i++)
            if (sorted[i] == sorted[i - 1]) distinct = 0;
        CHECK(distinct);
        for (int s = 0; s < LIVE; s++)
            if (!holds_own_id(s)) own = 0;
        CHECK(own);
    }

    /* Every freed handle is dead, those whose slot a live object holds now (with a newer
     * generation) included; no live object changed. */
    {
        int reused = 0, alive = 0;
        category_begin("freed handles whose slot holds a live object");
        for (int i = 0; i < nstale; i++) {
            int n = S32;
            if (MPI_Info_get_nkeys(stale[i], &n) != MPI_ERR_INFO || n != S32) alive++;
            for (int s = 0; s < LIVE; s++)
                if (slot_of(pool[s]) == slot_of(stale[i])) {
                    reused++;
                    category_probe(stale[i]);
                    break;
                }
        }
        CHECK(alive == 0);
        CHECK(reused > 0);
        CHECK(category_bad == 0);
        category_begin("other freed handles");
        for (int i = 0; i < nstale; i += 97) category_probe(stale[i]);
        CHECK(category_bad == 0);
        CHECK(fixtures_unchanged());
        int own = 1;
        for (int s = 0; s < LIVE; s++)
            if (!holds_own_id(s)) own = 0;
        CHECK(own);
    }
}

/* ---------------------------------------------------------------- conversions */

static void test_conversions(void) {
    CHECK(sizeof(MPI_Info) == sizeof(void *));
    CHECK(address(MPI_INFO_NULL) == 0x130 && address(MPI_INFO_ENV) == 0x131);
    CHECK(MPI_Info_toint(MPI_INFO_NULL) == 304 && MPI_Info_toint(MPI_INFO_ENV) == 305);
    CHECK(MPI_Info_fromint(304) == MPI_INFO_NULL && MPI_Info_fromint(305) == MPI_INFO_ENV);
    CHECK(PMPI_Info_toint(MPI_INFO_ENV) == 305 && PMPI_Info_fromint(305) == MPI_INFO_ENV);
    for (int i = 0; i < NFIX; i++) {
        CHECK(MPI_Info_fromint(MPI_Info_toint(fix[i])) == fix[i]);
        CHECK(MPI_Info_toint(fix[i]) == (int)address(fix[i]));
    }
    /* Every reserved value is its own integer, both ways. */
    {
        int wrong = 0;
        for (uintptr_t v = 0; v < RESERVED; v++)
            if (MPI_Info_toint(at(v)) != (int)v || MPI_Info_fromint((int)v) != at(v)) wrong++;
        CHECK(wrong == 0);
    }
    /* An address no int is becomes -1, which names no object. */
    {
        const uintptr_t high[] = {(uintptr_t)INT_MAX + 1,
                                  address(fix[0]) | (uintptr_t)1 << 32,
                                  address(fix[0]) | (uintptr_t)1 << 63,
                                  0x131 | (uintptr_t)1 << 32,
                                  UINTPTR_MAX};
        for (size_t i = 0; i < sizeof high / sizeof high[0]; i++)
            CHECK(MPI_Info_toint(at(high[i])) == -1);
    }
}

/* ---------------------------------------------------------------- forged values */

static void test_forged_addresses(void) {
    category_begin("values below 0x1000 (predefined handles of every kind, MPI_INFO_NULL, 0, "
                   "MPI_INFO_ENV)");
    for (uintptr_t v = 0; v < RESERVED; v++) category_probe(at(v));
    CHECK(category_bad == 0);
    CHECK(fixtures_unchanged());

    category_begin("live handles and MPI_INFO_ENV with a high bit set");
    for (int i = 0; i <= NFIX; i++) {
        const int bits[] = {31, 32, 40, 47, 48, 56, 63};
        for (size_t b = 0; b < sizeof bits / sizeof bits[0]; b++)
            category_probe(at(address(fix_handle(i)) | (uintptr_t)1 << bits[b]));
        category_probe(at(address(fix_handle(i)) + ((uintptr_t)1 << 32)));
        category_probe(at(~address(fix_handle(i))));
    }
    CHECK(category_bad == 0);
    CHECK(fixtures_unchanged());

    /* Real addresses: heap, stack, static data, code. One that happens to be a live handle
     * (an address below 2^31 is read as a handle number) is skipped. */
    {
        int local = 0;
        char *small = (char *)malloc(64), *large = (char *)malloc(1 << 20);
        const uintptr_t real[] = {UINTPTR_MAX,
                                  UINTPTR_MAX - 0xFFF,
                                  (uintptr_t)small,
                                  (uintptr_t)large,
                                  (uintptr_t)&local,
                                  (uintptr_t)&check_passed_count,
                                  (uintptr_t)fix_snap[0]};
        if (!small || !large) exit(2);
        category_begin("heap, stack and static addresses, ~0");
        for (size_t i = 0; i < sizeof real / sizeof real[0]; i++)
            if (!is_live(at(real[i]))) category_probe(at(real[i]));
        CHECK(category_bad == 0);
        CHECK(fixtures_unchanged());
        free(small);
        free(large);
    }

    /* Addresses of pages that cannot be read or written: a library that dereferenced a
     * handle would crash here. */
    {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        char *none = (char *)mmap(NULL, 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (none == MAP_FAILED) {
            perror("mmap");
            exit(2);
        }
        category_begin("addresses of PROT_NONE pages");
        const size_t offsets[] = {0, 1, 8, page - 8, page, 2 * page - 1};
        for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++)
            if (!is_live(at((uintptr_t)none + offsets[i]))) category_probe(at((uintptr_t)none + offsets[i]));
        CHECK(category_bad == 0);
        CHECK(fixtures_unchanged());
        munmap(none, 2 * page);
    }
}

/* Live objects whose handles are the addresses of PROT_NONE pages: every call on them works
 * as on any object, so the library never reads or writes through a handle. Each handle's page
 * is mapped where nothing was mapped before (MAP_FIXED_NOREPLACE); a page that is taken is
 * skipped, and at least one must be had. */
static void test_handles_on_inaccessible_pages(void) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int mapped = 0, work = 1;
    for (int s = 0; s < LIVE && mapped < 16; s += 61) {
        uintptr_t base = address(pool[s]) & ~(uintptr_t)(page - 1);
        void *p = mmap((void *)base, page, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == MAP_FAILED) continue;
        if ((uintptr_t)p != base) { /* a kernel that takes the address only as a hint */
            munmap(p, page);
            continue;
        }
        mapped++;
        {
            char value[64];
            int flag = 0, n = -1;
            MPI_Info d = MPI_INFO_NULL;
            if (!holds_own_id(s)) work = 0;
            if (MPI_Info_set(pool[s], "on", "a PROT_NONE page") != MPI_SUCCESS ||
                MPI_Info_get(pool[s], "on", 63, value, &flag) != MPI_SUCCESS || flag != 1 ||
                strcmp(value, "a PROT_NONE page") != 0 ||
                MPI_Info_get_nkeys(pool[s], &n) != MPI_SUCCESS || n < 2 ||
                MPI_Info_delete(pool[s], "on") != MPI_SUCCESS ||
                MPI_Info_dup(pool[s], &d) != MPI_SUCCESS || MPI_Info_free(&d) != MPI_SUCCESS)
                work = 0;
        }
        munmap(p, page);
    }
    CHECK(mapped > 0);
    CHECK(work);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    test_both_libraries();
    make_fixtures();
    test_conversions();
    test_created_handles();
    test_forged_addresses();
    test_handles_on_inaccessible_pages();

    for (int s = 0; s < LIVE; s++)
        if (pool[s] != MPI_INFO_NULL) CHECK_RC(MPI_Info_free(&pool[s]), MPI_SUCCESS);
    free_fixtures();
    return check_report();
}
