#ifndef SUBWEAVE_CCURL_H
#define SUBWEAVE_CCURL_H

#include <stddef.h>

/* One HTTP(S) GET through libcurl, loaded with dlopen the first time a URL is read: a run that
 * reads no URL never loads libcurl and the TLS libraries behind it (their start-up was most of
 * the tool's), and the tool starts on a machine without libcurl.
 *
 * The callbacks return 0 to go on and anything else to stop the transfer. */

typedef int (*subweave_header_callback)(void *context, const char *line, size_t count);
typedef int (*subweave_data_callback)(void *context, const char *bytes, size_t count);

enum subweave_http_stop {
    SUBWEAVE_HTTP_COMPLETED = 0,
    /* A callback asked to stop. */
    SUBWEAVE_HTTP_STOPPED = 1,
    /* No byte for the idle timeout. */
    SUBWEAVE_HTTP_IDLE = 2,
    /* The whole transfer took longer than the overall timeout. */
    SUBWEAVE_HTTP_OVERALL = 3,
    /* libcurl failed (curl_code, message). */
    SUBWEAVE_HTTP_FAILED = 4,
    /* libcurl could not be loaded (message). */
    SUBWEAVE_HTTP_UNAVAILABLE = 5,
};

typedef struct {
    int stop;          /* enum subweave_http_stop */
    int curl_code;     /* CURLcode of the transfer */
    long http_status;  /* the last response's status code, 0 for none */
    char message[512]; /* what failed, for people */
} subweave_http_result;

/* GETs `url` (http or https only, redirects followed up to 10, the body never decoded:
 * `Accept-Encoding: identity`), handing each header line and each piece of the body to the
 * callbacks; gives up after `idle_ms` without a byte or `overall_ms` in all. */
void subweave_http_get(const char *url, long idle_ms, long overall_ms, void *context,
                       subweave_header_callback on_header, subweave_data_callback on_data,
                       subweave_http_result *result);

#endif
