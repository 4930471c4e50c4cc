package dev.muster.support.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A part of a document generated from code, between a begin and an end marker: a test asserts that the
 * document holds what the code says, or with {@code -Dmuster.docs.write=true} writes it there.
 */
public final class GeneratedDocSection {
    private GeneratedDocSection() {
    }

    /**
     * Fails unless {@code doc} holds {@code content} between the markers; rewrites it instead when
     * {@code muster.docs.write} is set.
     */
    public static void check(Path doc, String begin, String end, String content) throws IOException {
        String text = Files.readString(doc);
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        assertThat(from).as("%s has the markers", doc).isNotNegative();
        assertThat(to).isGreaterThan(from);
        String expected = text.substring(0, from + begin.length()) + "\n" + content + text.substring(to);
        if (Boolean.getBoolean("muster.docs.write")) {
            Files.writeString(doc, expected);
            return;
        }
        assertThat(text).as("regenerate with -Dmuster.docs.write=true").isEqualTo(expected);
    }
}
