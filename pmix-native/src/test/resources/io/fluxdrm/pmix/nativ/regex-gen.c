/* Prints, for each argument (a comma-separated list), the regex values the linked libpmix makes
 * of it, as hex, one line each:
 *   regex2 N TAG BYTES EXPANDED   PMIx_generate_regex2, and PMIx_parse_regex2 of its result
 *   regex N BYTES                 PMIx_generate_regex, loaded as a PMIX_REGEX value (byte object)
 *   ppn N BYTES                   PMIx_generate_ppn, loaded the same way
 * PmixRegexPeerTest expands each with the Java parser and compares it with the argument. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmix.h>
#include <pmix_server.h>

static void hex(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        printf("%02x", b[i]);
    }
}

static int legacy(const char *what, int n, pmix_status_t rc, char *text)
{
    pmix_value_t v;
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "%s %d: %s\n", what, n, PMIx_Error_string(rc));
        return 1;
    }
    PMIx_Value_construct(&v);
    rc = PMIx_Value_load(&v, text, PMIX_REGEX);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "%s %d: PMIx_Value_load: %s\n", what, n, PMIx_Error_string(rc));
        return 1;
    }
    printf("%s %d ", what, n);
    hex(v.data.bo.bytes, v.data.bo.size);
    printf("\n");
    PMIx_Value_destruct(&v);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    pmix_server_module_t module;
    pmix_info_t info[1];
    char cwd[4096];
    pmix_status_t rc;
    int bad = 0;

    memset(&module, 0, sizeof(module));
    if (NULL == getcwd(cwd, sizeof(cwd))) {
        perror("getcwd");
        return 1;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, cwd, PMIX_STRING);
    rc = PMIx_server_init(&module, info, 1);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "PMIx_server_init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        pmix_regex2_t r2;
        char *text = NULL;
        PMIx_Regex2_construct(&r2);
        rc = PMIx_generate_regex2(argv[i], NULL, 0, &r2);
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_parse_regex2(&r2, NULL, 0, &text);
        }
        if (PMIX_SUCCESS != rc) {
            fprintf(stderr, "regex2 %d: %s\n", i, PMIx_Error_string(rc));
            bad = 1;
            continue;
        }
        printf("regex2 %d %s ", i, r2.type);
        hex(r2.bytes, r2.len);
        printf(" ");
        hex(text, strlen(text));
        printf("\n");
        free(text);
        PMIx_Regex2_destruct(&r2);
        text = NULL;
        rc = PMIx_generate_regex(argv[i], &text);
        bad |= legacy("regex", i, rc, text);
        text = NULL;
        rc = PMIx_generate_ppn(argv[i], &text);
        bad |= legacy("ppn", i, rc, text);
    }
    fflush(stdout);
    PMIx_server_finalize();
    return bad;
}
