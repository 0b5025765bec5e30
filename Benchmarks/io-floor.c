/* The I/O floor of a packaging run: writes the same files Subweave wrote (paths and sizes from a
 * manifest), the way Subweave writes them — each rendition's files into a staging folder renamed
 * into place whole, one syncfs, then the master through a temporary file, fsync and rename — and
 * does nothing else. Nothing can package faster than this on the same disk.
 *
 *   cc -O2 -o io-floor Benchmarks/io-floor.c
 *   io-floor MANIFEST OUTPUT_ROOT      (MANIFEST: "<folder>\t<file>\t<size>" per line, master last as ".\tmaster.m3u8\t<size>")
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buffer[1 << 20];

static void write_file(const char *path, size_t size, int sync) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) { perror(path); exit(1); }
    while (size > 0) {
        size_t n = size < sizeof buffer ? size : sizeof buffer;
        ssize_t w = write(fd, buffer, n);
        if (w <= 0) { perror(path); exit(1); }
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

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: io-floor MANIFEST OUTPUT_ROOT\n"); return 64; }
    memset(buffer, 'x', sizeof buffer);
    FILE *manifest = fopen(argv[1], "r");
    if (!manifest) { perror(argv[1]); return 1; }
    const char *root = argv[2];
    make_dirs(root);
    char folder[2048], name[1024], current[2048] = "", staging[4096] = "", target[4096] = "";
    size_t size;
    char path[8192];
    while (fscanf(manifest, "%2047[^\t]\t%1023[^\t]\t%zu\n", folder, name, &size) == 3) {
        if (strcmp(folder, ".") == 0) {
            /* The master: everything it names is durable first. */
            if (current[0]) { rename(staging, target); current[0] = 0; }
            int dir = open(root, O_RDONLY | O_DIRECTORY);
            syncfs(dir);
            snprintf(path, sizeof path, "%s/.tmp-%s", root, name);
            write_file(path, size, 1);
            char final[8192];
            snprintf(final, sizeof final, "%s/%s", root, name);
            rename(path, final);
            fsync(dir);
            close(dir);
            continue;
        }
        if (strcmp(folder, current) != 0) {
            if (current[0]) rename(staging, target);
            snprintf(current, sizeof current, "%s", folder);
            snprintf(target, sizeof target, "%s/%s", root, folder);
            char *slash = strrchr(target, '/');
            *slash = 0;
            make_dirs(target);
            *slash = '/';
            snprintf(staging, sizeof staging, "%s.staging", target);
            mkdir(staging, 0755);
        }
        snprintf(path, sizeof path, "%s/%s", staging, name);
        write_file(path, size, 0);
    }
    if (current[0]) rename(staging, target);
    fclose(manifest);
    return 0;
}
