/* replay_main.c - runs fuzz inputs through fuzz/info_fuzz.c without libFuzzer.
 *
 *   fuzz_replay [FILE|DIR]...
 *
 * Each file (each regular file of a directory, in name order; names starting with '.' and
 * ending in ".md" are skipped) is run through LLVMFuzzerTestOneInput in a child process of its
 * own, so an input that aborts (a model mismatch) or crashes is one failure and the others
 * still run. With no arguments it replays the directories compiled in as FUZZ_REPLAY_DIRS
 * (colon-separated). The last line is "fuzz_replay: N passed, M failed", in the form
 * tests-c/run-suite.sh adds up: N counts the checks of the inputs that passed, M the inputs
 * that failed (each stops at its first failed check). */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern unsigned long long info_fuzz_checks;

static unsigned long long passed;
static unsigned long failed, inputs;

static int read_input(const char *path, uint8_t **data, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 4096, n = 0;
    uint8_t *buf = (uint8_t *)malloc(cap);
    while (buf) {
        if (n == cap) {
            uint8_t *nb = (uint8_t *)realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        return -1;
    }
    *data = buf;
    *size = n;
    return 0;
}

static void run_file(const char *path) {
    uint8_t *data;
    size_t size;
    inputs++;
    if (read_input(path, &data, &size) != 0) {
        fprintf(stderr, "fuzz_replay: cannot read %s: %s\n", path, strerror(errno));
        failed++;
        return;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        perror("fuzz_replay: pipe");
        exit(2);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fuzz_replay: fork");
        exit(2);
    }
    if (pid == 0) {
        close(fds[0]);
        LLVMFuzzerTestOneInput(data, size);
        unsigned long long n = info_fuzz_checks;
        ssize_t w = write(fds[1], &n, sizeof n);
        _exit(w == (ssize_t)sizeof n ? 0 : 3);
    }
    close(fds[1]);
    unsigned long long checks = 0;
    ssize_t got = read(fds[0], &checks, sizeof checks);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    free(data);
    if (got == (ssize_t)sizeof checks && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        passed += checks;
    } else {
        failed++;
        if (WIFSIGNALED(status))
            fprintf(stderr, "fuzz_replay: FAILED %s (signal %d)\n", path, WTERMSIG(status));
        else
            fprintf(stderr, "fuzz_replay: FAILED %s (exit %d)\n", path, WEXITSTATUS(status));
    }
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz_replay: %s: %s\n", path, strerror(errno));
        failed++;
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "fuzz_replay: %s: %s\n", path, strerror(errno));
        failed++;
        return;
    }
    size_t n = 0, cap = 64;
    char **names = (char **)malloc(cap * sizeof *names);
    struct dirent *e;
    while (names && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || (len > 3 && strcmp(e->d_name + len - 3, ".md") == 0)) continue;
        if (n == cap) {
            char **nn = (char **)realloc(names, 2 * cap * sizeof *names);
            if (!nn) break;
            names = nn;
            cap *= 2;
        }
        names[n] = (char *)malloc(strlen(path) + len + 2);
        if (!names[n]) break;
        sprintf(names[n], "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (!names) {
        fprintf(stderr, "fuzz_replay: out of memory\n");
        exit(2);
    }
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) run_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv) {
    if (argc > 1) {
        for (int i = 1; i < argc; i++) run_path(argv[i]);
    } else {
#ifdef FUZZ_REPLAY_DIRS
        char *dirs = strdup(FUZZ_REPLAY_DIRS);
        for (char *save = NULL, *dir = dirs ? strtok_r(dirs, ":", &save) : NULL; dir;
             dir = strtok_r(NULL, ":", &save))
            run_path(dir);
        free(dirs);
#else
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
#endif
    }
    if (inputs == 0) {
        fprintf(stderr, "fuzz_replay: no inputs found\n");
        failed++;
    }
    printf("fuzz_replay: %llu passed, %lu failed\n", passed, failed);
    return failed != 0;
}
