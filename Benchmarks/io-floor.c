/* The I/O floor of a packaging run: writes the same files Subweave wrote (paths and sizes from a
 * manifest), the way Subweave writes them — each rendition's files into a staging folder (created
 * relative to the folder's descriptor) renamed into place whole, the renditions spread over one
 * thread per online core, then one syncfs and the master through a temporary file, fsync and
 * rename — and does nothing else. Nothing can package faster than this on the same disk and cores.
 *
 *   cc -O2 -pthread -o io-floor Benchmarks/io-floor.c
 *   io-floor MANIFEST OUTPUT_ROOT      (MANIFEST: "<folder>\t<file>\t<size>" per line, master last as ".\tmaster.m3u8\t<size>")
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buffer[1 << 20];

struct entry { char *name; size_t size; };
struct folder { char *path; struct entry *files; size_t count, capacity; };

static struct folder *folders;
static size_t folder_count;
static atomic_size_t next_folder;
static const char *root;

static void write_file(int dir, const char *name, size_t size, int sync) {
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) { perror(name); exit(1); }
    while (size > 0) {
        size_t n = size < sizeof buffer ? size : sizeof buffer;
        ssize_t w = write(fd, buffer, n);
        if (w <= 0) { perror(name); exit(1); }
        size -= (size_t)w;
    }
    if (sync) fsync(fd);
    close(fd);
}

static void make_dirs(const char *path) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') { *p = 0; mkdir(tmp, 0755); *p = '/'; }
    }
    mkdir(tmp, 0755);
}

/* One rendition: its files into "<target>.staging", then renamed to <target>. */
static void write_folder(const struct folder *f) {
    char target[4096], staging[4200];
    snprintf(target, sizeof target, "%s/%s", root, f->path);
    char *slash = strrchr(target, '/');
    *slash = 0;
    make_dirs(target);
    *slash = '/';
    snprintf(staging, sizeof staging, "%s.staging", target);
    mkdir(staging, 0755);
    int dir = open(staging, O_RDONLY | O_DIRECTORY);
    if (dir < 0) { perror(staging); exit(1); }
    for (size_t i = 0; i < f->count; i++) write_file(dir, f->files[i].name, f->files[i].size, 0);
    close(dir);
    rename(staging, target);
}

static void *worker(void *unused) {
    (void)unused;
    for (;;) {
        size_t i = atomic_fetch_add(&next_folder, 1);
        if (i >= folder_count) return NULL;
        write_folder(&folders[i]);
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: io-floor MANIFEST OUTPUT_ROOT\n"); return 64; }
    memset(buffer, 'x', sizeof buffer);
    FILE *manifest = fopen(argv[1], "r");
    if (!manifest) { perror(argv[1]); return 1; }
    root = argv[2];
    make_dirs(root);
    char folder[2048], name[1024], master[1024] = "";
    size_t size, master_size = 0, capacity = 0;
    while (fscanf(manifest, "%2047[^\t]\t%1023[^\t]\t%zu\n", folder, name, &size) == 3) {
        if (strcmp(folder, ".") == 0) { snprintf(master, sizeof master, "%s", name); master_size = size; continue; }
        if (folder_count == 0 || strcmp(folders[folder_count - 1].path, folder) != 0) {
            if (folder_count == capacity) { capacity = capacity ? 2 * capacity : 16; folders = realloc(folders, capacity * sizeof *folders); }
            folders[folder_count++] = (struct folder){ strdup(folder), NULL, 0, 0 };
        }
        struct folder *f = &folders[folder_count - 1];
        if (f->count == f->capacity) { f->capacity = f->capacity ? 2 * f->capacity : 256; f->files = realloc(f->files, f->capacity * sizeof *f->files); }
        f->files[f->count++] = (struct entry){ strdup(name), size };
    }
    fclose(manifest);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* IO_FLOOR_THREADS=1: the single writer a sequential packager would be. */
    if (getenv("IO_FLOOR_THREADS")) cores = atol(getenv("IO_FLOOR_THREADS"));
    if (cores < 1) cores = 1;
    pthread_t threads[256];
    long n = cores < 256 ? cores : 256;
    for (long t = 0; t < n; t++) pthread_create(&threads[t], NULL, worker, NULL);
    for (long t = 0; t < n; t++) pthread_join(threads[t], NULL);
    if (master[0]) {
        /* The master: everything it names is durable first. */
        int dir = open(root, O_RDONLY | O_DIRECTORY);
        syncfs(dir);
        char temporary[1100];
        snprintf(temporary, sizeof temporary, ".tmp-%s", master);
        write_file(dir, temporary, master_size, 1);
        renameat(dir, temporary, dir, master);
        fsync(dir);
        close(dir);
    }
    return 0;
}
