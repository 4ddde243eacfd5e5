/*
 * The real side of the proof suite (tests-proof/run.py): makes one MPI object per case with its
 * hints, in one job, and prints what the implementation reports back and what it did.
 *
 *   probe CASES DIR
 *
 * CASES has one case a line, "ID OBJECT KEY VALUE [KEY VALUE]...", each KEY and VALUE in hex
 * ("-" for empty): the first pair is the case's, the others are set beside it. An empty first
 * KEY is a baseline: the object made without hints, and every key it reports printed. The
 * objects, each made by every process of MPI_COMM_WORLD:
 *
 *   file          MPI_File_open of DIR/ID (create, read-write), MPI_File_get_info
 *   window        MPI_Win_allocate of 64 bytes, MPI_Win_get_info, then MPI_Win_lock (shared)
 *                 of rank 0's memory: "lock" is its return code
 *   shared        MPI_Win_allocate_shared of 100 bytes, MPI_Win_get_info; "offset" is the
 *                 distance from one process's segment to the next (100 when contiguous)
 *   comm          MPI_Comm_dup_with_info, MPI_Comm_get_info
 *   split-hw, split-shared
 *                 MPI_Comm_split_type with MPI_COMM_TYPE_HW_GUIDED (where the MPI has it) or
 *                 MPI_COMM_TYPE_SHARED, MPI_Comm_get_info of the new communicator; "split" is
 *                 its size (0: MPI_COMM_NULL)
 *   nc            (built with -DPROBE_PNETCDF) ncmpi_create of DIR/ID.nc,
 *                 ncmpi_inq_file_info, a dimension, two fixed-size variables and a record
 *                 variable, ncmpi_enddef, ncmpi_inq_file_info again ("after")
 *
 * Rank 0 prints, flushed, "begin ID" before the case, then, before the object is freed (closed),
 *
 *   case ID rc=RC [lock=RC] [offset=N] [split=N] [report=HEX|report=-] [after=HEX|after=-]
 *
 * RC the creating call's return code (0 for success), "-" a key not reported; for a baseline
 *
 *   baseline ID rc=RC [lock=RC] [offset=N] [split=N] [KEYHEX=VALUEHEX]... [after KEYHEX=VALUEHEX...]
 *
 * A case that kills the job leaves its "begin" without its "case" (or, when freeing its object
 * kills it, no "begin" after): the driver runs the cases after it in a job of their own. Errors
 * return (MPI_ERRORS_RETURN) rather than abort. Ends with "end".
 */
#include <mpi.h>
#ifdef PROBE_PNETCDF
#include <pnetcdf.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static int unhex(const char *hex, char *out, size_t room) {
    size_t n = strcmp(hex, "-") == 0 ? 0 : strlen(hex);
    if (n % 2 || n / 2 >= room) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) return -1;
        out[i] = (char)byte;
    }
    out[n / 2] = '\0';
    return 0;
}

/* The text in hex (nothing for an empty text). */
static void put_hex(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) printf("%02x", *p);
}

/* " NAME=HEX" for the key's value in info, or " NAME=-". */
static void put_value(const char *name, MPI_Info info, const char *key) {
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    printf(" %s=", name);
    if (info != MPI_INFO_NULL) MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    if (flag)
        put_hex(value);
    else
        printf("-");
}

/* " KEYHEX=VALUEHEX" for every key of info. */
static void put_all(MPI_Info info) {
    int n = 0;
    if (info != MPI_INFO_NULL) MPI_Info_get_nkeys(info, &n);
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        MPI_Info_get_nthkey(info, i, key);
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
        printf(" ");
        put_hex(key);
        printf("=");
        if (flag) put_hex(value);
    }
}

/* One case's object, what it reports (before and, for nc, after), and what was observed. */
struct object {
    int rc;
    MPI_File fh;
    MPI_Win win;
    MPI_Comm comm;
    int ncid, is_nc;
    MPI_Info report, after;
    int lock, offset, split;
    int has_lock, has_offset, has_split;
};

static void make_file(const char *path, MPI_Info info, struct object *o) {
    o->rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &o->fh);
    if (o->rc == MPI_SUCCESS) MPI_File_get_info(o->fh, &o->report);
}

static void make_window(MPI_Info info, struct object *o) {
    void *base;
    o->rc = MPI_Win_allocate(64, 1, info, MPI_COMM_WORLD, &base, &o->win);
    if (o->rc != MPI_SUCCESS) return;
    MPI_Win_set_errhandler(o->win, MPI_ERRORS_RETURN);
    MPI_Win_get_info(o->win, &o->report);
    o->has_lock = 1;
    o->lock = MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, o->win);
    if (o->lock == MPI_SUCCESS) MPI_Win_unlock(0, o->win);
}

static void make_shared(MPI_Info info, struct object *o) {
    char *base, *first, *second;
    MPI_Aint bytes;
    int unit;
    o->rc = MPI_Win_allocate_shared(100, 1, info, MPI_COMM_WORLD, &base, &o->win);
    if (o->rc != MPI_SUCCESS) return;
    MPI_Win_get_info(o->win, &o->report);
    MPI_Win_shared_query(o->win, 0, &bytes, &unit, &first);
    MPI_Win_shared_query(o->win, size > 1 ? 1 : 0, &bytes, &unit, &second);
    o->has_offset = 1;
    o->offset = size > 1 ? (int)(second - first) : 100;
}

static void make_comm(MPI_Info info, struct object *o) {
    o->rc = MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &o->comm);
    if (o->rc == MPI_SUCCESS) MPI_Comm_get_info(o->comm, &o->report);
}

static void make_split(int type, MPI_Info info, struct object *o) {
    o->rc = MPI_Comm_split_type(MPI_COMM_WORLD, type, 0, info, &o->comm);
    if (o->rc != MPI_SUCCESS) return;
    o->has_split = 1;
    o->split = 0;
    if (o->comm == MPI_COMM_NULL) return;
    MPI_Comm_size(o->comm, &o->split);
    MPI_Comm_get_info(o->comm, &o->report);
}

#ifdef PROBE_PNETCDF
static void make_nc(const char *path, MPI_Info info, struct object *o) {
    int dim, rec, var;
    o->rc = ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &o->ncid);
    if (o->rc != NC_NOERR) return;
    o->is_nc = 1;
    ncmpi_inq_file_info(o->ncid, &o->report);
    ncmpi_def_dim(o->ncid, "x", 10, &dim);
    ncmpi_def_dim(o->ncid, "t", NC_UNLIMITED, &rec);
    ncmpi_def_var(o->ncid, "a", NC_INT, 1, &dim, &var);
    ncmpi_def_var(o->ncid, "b", NC_INT, 1, &dim, &var);
    ncmpi_def_var(o->ncid, "r", NC_INT, 1, &rec, &var);
    o->rc = ncmpi_enddef(o->ncid);
    ncmpi_inq_file_info(o->ncid, &o->after);
}
#endif

static void free_object(struct object *o, const char *path) {
    if (o->report != MPI_INFO_NULL) MPI_Info_free(&o->report);
    if (o->after != MPI_INFO_NULL) MPI_Info_free(&o->after);
    if (o->fh != MPI_FILE_NULL) {
        MPI_File_close(&o->fh);
        if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
    }
    if (o->win != MPI_WIN_NULL) MPI_Win_free(&o->win);
    if (o->comm != MPI_COMM_NULL) MPI_Comm_free(&o->comm);
#ifdef PROBE_PNETCDF
    if (o->is_nc) {
        ncmpi_close(o->ncid);
        if (rank == 0) remove(path);
    }
#endif
}

/* The case line (or the baseline line) of rank 0. */
static void put_case(const char *id, const char *key, const struct object *o) {
    printf("%s %s rc=%d", *key ? "case" : "baseline", id, o->rc);
    if (o->has_lock) printf(" lock=%d", o->lock);
    if (o->has_offset) printf(" offset=%d", o->offset);
    if (o->has_split) printf(" split=%d", o->split);
    if (!*key) {
        put_all(o->report);
        if (o->after != MPI_INFO_NULL) {
            printf(" after");
            put_all(o->after);
        }
    } else {
        if (o->report != MPI_INFO_NULL || o->has_split) put_value("report", o->report, key);
        if (o->after != MPI_INFO_NULL) put_value("after", o->after, key);
    }
    printf("\n");
    fflush(stdout);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    if (argc != 3) {
        if (rank == 0) fprintf(stderr, "usage: probe CASES DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    FILE *cases = fopen(argv[1], "r");
    if (!cases) {
        if (rank == 0) perror(argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    static char line[16 * MPI_MAX_INFO_VAL];
    while (fgets(line, sizeof line, cases)) {
        char *id = strtok(line, " \n"), *object = strtok(NULL, " \n"), *hex;
        char key[MPI_MAX_INFO_KEY + 1], first[MPI_MAX_INFO_KEY + 1] = "", value[MPI_MAX_INFO_VAL + 1];
        char path[4096];
        if (!id || !object) {
            if (rank == 0) fprintf(stderr, "probe: bad case line\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (rank == 0) {
            printf("begin %s\n", id);
            fflush(stdout);
        }
        /* The case's key and value, then those set beside it. */
        MPI_Info info;
        MPI_Info_create(&info);
        for (int pair = 0; (hex = strtok(NULL, " \n")); pair++) {
            char *valuehex = strtok(NULL, " \n");
            if (!valuehex || unhex(hex, key, sizeof key) || unhex(valuehex, value, sizeof value)) {
                if (rank == 0) fprintf(stderr, "probe: bad case %s\n", id);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            if (pair == 0) snprintf(first, sizeof first, "%s", key);
            if (*key) MPI_Info_set(info, key, value);
        }
        struct object o;
        memset(&o, 0, sizeof o);
        o.fh = MPI_FILE_NULL;
        o.win = MPI_WIN_NULL;
        o.comm = MPI_COMM_NULL;
        o.report = o.after = MPI_INFO_NULL;
        snprintf(path, sizeof path, "%s/%s", argv[2], id);
        if (strcmp(object, "file") == 0) {
            make_file(path, info, &o);
        } else if (strcmp(object, "window") == 0) {
            make_window(info, &o);
        } else if (strcmp(object, "shared") == 0) {
            make_shared(info, &o);
        } else if (strcmp(object, "comm") == 0) {
            make_comm(info, &o);
#ifdef MPI_COMM_TYPE_HW_GUIDED
        } else if (strcmp(object, "split-hw") == 0) {
            make_split(MPI_COMM_TYPE_HW_GUIDED, info, &o);
#endif
        } else if (strcmp(object, "split-shared") == 0) {
            make_split(MPI_COMM_TYPE_SHARED, info, &o);
#ifdef PROBE_PNETCDF
        } else if (strcmp(object, "nc") == 0) {
            strncat(path, ".nc", sizeof path - strlen(path) - 1);
            make_nc(path, info, &o);
#endif
        } else {
            if (rank == 0) fprintf(stderr, "probe: unknown object %s\n", object);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Info_free(&info);
        if (rank == 0) put_case(id, first, &o);
        free_object(&o, path);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    fclose(cases);
    if (rank == 0) printf("end\n");
    MPI_Finalize();
    return 0;
}
