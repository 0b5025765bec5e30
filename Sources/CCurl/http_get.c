#define _GNU_SOURCE
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The libcurl ABI this uses (stable since 7.x; option numbers from curl.h). */
typedef void CURL;
struct curl_slist;
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_USERAGENT = 10018,
    OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_XFERINFODATA = 10057,
    OPT_PROTOCOLS_STR = 10318, OPT_REDIR_PROTOCOLS_STR = 10319,
    OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079, OPT_XFERINFOFUNCTION = 20219,
    OPT_NOPROGRESS = 43, OPT_FOLLOWLOCATION = 52, OPT_MAXREDIRS = 68, OPT_NOSIGNAL = 99,
    OPT_PROTOCOLS = 181, OPT_REDIR_PROTOCOLS = 182,
    INFO_RESPONSE_CODE = 0x200000 + 2,
    PROTO_HTTP = 1, PROTO_HTTPS = 2,
    GLOBAL_DEFAULT = 3,
    E_OK = 0, E_WRITE_ERROR = 23, E_ABORTED_BY_CALLBACK = 42,
};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    char error[256];
    int ready;
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(curl.error, sizeof curl.error, "reading an http(s) URL needs libcurl, which is not installed (libcurl.so.4 not found; apt-get install libcurl4)");
        return;
    }
#define BIND(field, symbol)                                                                          \
    if (!(*(void **)&curl.field = dlsym(library, symbol))) {                                          \
        snprintf(curl.error, sizeof curl.error, "the installed libcurl has no %s; reading URLs needs libcurl 7.64 or later", symbol); \
        return;                                                                                       \
    }
    BIND(global_init, "curl_global_init")
    BIND(easy_init, "curl_easy_init")
    BIND(easy_setopt, "curl_easy_setopt")
    BIND(easy_perform, "curl_easy_perform")
    BIND(easy_getinfo, "curl_easy_getinfo")
    BIND(easy_cleanup, "curl_easy_cleanup")
    BIND(easy_strerror, "curl_easy_strerror")
    BIND(slist_append, "curl_slist_append")
    BIND(slist_free_all, "curl_slist_free_all")
#undef BIND
    if (curl.global_init(GLOBAL_DEFAULT) != E_OK) {
        snprintf(curl.error, sizeof curl.error, "libcurl could not be initialised");
        return;
    }
    curl.ready = 1;
}

static long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

typedef struct {
    void *context;
    subweave_header_callback on_header;
    subweave_data_callback on_data;
    long started, last_byte, idle_ms, overall_ms;
    int stop;
} transfer;

static size_t header(char *line, size_t size, size_t count, void *data) {
    transfer *t = data;
    t->last_byte = now_ms();
    if (t->on_header(t->context, line, size * count) != 0) {
        t->stop = SUBWEAVE_HTTP_STOPPED;
        return 0;
    }
    return size * count;
}

static size_t body(char *bytes, size_t size, size_t count, void *data) {
    transfer *t = data;
    t->last_byte = now_ms();
    if (t->on_data(t->context, bytes, size * count) != 0) {
        t->stop = SUBWEAVE_HTTP_STOPPED;
        return 0;
    }
    return size * count;
}

/* Called by libcurl at least once a second, data or not. */
static int progress(void *data, long long dltotal, long long dlnow, long long ultotal, long long ulnow) {
    (void)dltotal; (void)dlnow; (void)ultotal; (void)ulnow;
    transfer *t = data;
    long now = now_ms();
    if (now - t->started >= t->overall_ms) { t->stop = SUBWEAVE_HTTP_OVERALL; return 1; }
    if (now - t->last_byte >= t->idle_ms) { t->stop = SUBWEAVE_HTTP_IDLE; return 1; }
    return 0;
}

void subweave_http_get(const char *url, long idle_ms, long overall_ms, void *context,
                       subweave_header_callback on_header, subweave_data_callback on_data,
                       subweave_http_result *result) {
    memset(result, 0, sizeof *result);
    pthread_once(&once, load);
    if (!curl.ready) {
        result->stop = SUBWEAVE_HTTP_UNAVAILABLE;
        snprintf(result->message, sizeof result->message, "%s", curl.error);
        return;
    }
    CURL *handle = curl.easy_init();
    if (!handle) {
        result->stop = SUBWEAVE_HTTP_FAILED;
        snprintf(result->message, sizeof result->message, "libcurl could not start a transfer");
        return;
    }
    transfer t = {context, on_header, on_data, now_ms(), 0, idle_ms, overall_ms, SUBWEAVE_HTTP_COMPLETED};
    t.last_byte = t.started;
    char error[256] = "";
    struct curl_slist *headers = curl.slist_append(NULL, "Accept-Encoding: identity");
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, OPT_MAXREDIRS, 10L);
    if (curl.easy_setopt(handle, OPT_PROTOCOLS_STR, "http,https") != E_OK) curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    if (curl.easy_setopt(handle, OPT_REDIR_PROTOCOLS_STR, "http,https") != E_OK) curl.easy_setopt(handle, OPT_REDIR_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    curl.easy_setopt(handle, OPT_USERAGENT, "subweave");
    curl.easy_setopt(handle, OPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, header);
    curl.easy_setopt(handle, OPT_HEADERDATA, &t);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, body);
    curl.easy_setopt(handle, OPT_WRITEDATA, &t);
    curl.easy_setopt(handle, OPT_XFERINFOFUNCTION, progress);
    curl.easy_setopt(handle, OPT_XFERINFODATA, &t);
    curl.easy_setopt(handle, OPT_NOPROGRESS, 0L);
    int code = curl.easy_perform(handle);
    long status = 0;
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &status);
    result->curl_code = code;
    result->http_status = status;
    if (t.stop != SUBWEAVE_HTTP_COMPLETED) {
        result->stop = t.stop;
    } else if (code != E_OK) {
        result->stop = SUBWEAVE_HTTP_FAILED;
        snprintf(result->message, sizeof result->message, "%s", error[0] ? error : curl.easy_strerror(code));
    }
    curl.easy_cleanup(handle);
    curl.slist_free_all(headers);
}
