package dev.muster.support.controller;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ApiWarningsTest {
    @Test
    void aKubernetesWarningIsItsQuotedTextWithTheEscapesUndone() {
        assertThat(ApiWarnings.parse(List.of("299 - \"unknown field \\\"spec.containers[0].resorces\\\"\"")))
                .containsExactly("unknown field \"spec.containers[0].resorces\"");
        assertThat(ApiWarnings.parse(List.of("299 kube-apiserver \"a back\\\\slash\"")))
                .containsExactly("a back\\slash");
    }

    @Test
    void severalWarningsInOneHeaderOrInSeveralAreAllRead() {
        assertThat(ApiWarnings.parse(List.of("299 - \"one, with a comma\", 299 - \"two\"", "299 - \"three\"")))
                .containsExactly("one, with a comma", "two", "three");
    }

    @Test
    void aDateAfterTheTextIsSkipped() {
        assertThat(ApiWarnings.parse(List.of("299 - \"dated\" \"Tue, 15 Nov 1994 08:12:31 GMT\", 299 - \"next\"")))
                .containsExactly("dated", "next");
    }

    @Test
    void otherCodesAreNotKubernetesWarnings() {
        assertThat(ApiWarnings.parse(List.of("199 - \"miscellaneous\", 299 - \"kept\""))).containsExactly("kept");
    }

    @Test
    void aMalformedHeaderIsGivenUpWhereItStopsParsing() {
        assertThat(ApiWarnings.parse(List.of("299 - unquoted"))).isEmpty();
        assertThat(ApiWarnings.parse(List.of("299 - \"never closed"))).isEmpty();
        assertThat(ApiWarnings.parse(List.of("299 - \"first\" junk, 299 - \"lost\""))).containsExactly("first");
        assertThat(ApiWarnings.parse(List.of("", "299"))).isEmpty();
    }
}
