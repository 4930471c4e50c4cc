package dev.muster.local.protocol;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Boolean query parameters read as kube-apiserver reads them, whatever the client spells. */
class RequestQueryTest {

    @ParameterizedTest(name = "{0} watches: {1}")
    @CsvSource({
            "/api/v1/pods?watch=true, true",
            "/api/v1/pods?watch=True, true",
            "/api/v1/pods?watch=1, true",
            "/api/v1/pods?watch=, true",
            "/api/v1/pods?watch=yes, true",
            "/api/v1/pods?watch=false, false",
            "/api/v1/pods?watch=FALSE, false",
            "/api/v1/pods?watch=0, false",
            "/api/v1/pods?resourceVersion=5, false",
            "/api/v1/pods, false",
    })
    void watchIsAnyValueButZeroOrFalse(String path, boolean watches) {
        assertThat(RequestQuery.isWatch(path)).isEqualTo(watches);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "/api/v1/pods?watch=1&sendInitialEvents=True, true",
            "/api/v1/pods?watch=1&sendInitialEvents=0, false",
    })
    void flagIsReadTheSameWay(String path, boolean value) {
        assertThat(RequestQuery.flag(path, "sendInitialEvents")).contains(value);
        assertThat(RequestQuery.flag(path, "allowWatchBookmarks")).isEmpty();
    }
}
