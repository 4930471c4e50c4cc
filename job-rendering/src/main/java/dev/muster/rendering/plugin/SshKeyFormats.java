package dev.muster.rendering.plugin;

import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

import java.io.IOException;
import java.io.StringReader;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Whether a key given to the ssh plugin ({@code --ssh-private-key}, {@code --ssh-public-key}) has the form
 * OpenSSH reads, checked without ever putting the key's text into a message.
 */
public final class SshKeyFormats {
    private SshKeyFormats() {
    }

    /**
     * Whether the text is one PEM block of a private key as OpenSSH reads one ({@code OPENSSH PRIVATE KEY},
     * {@code RSA PRIVATE KEY}, {@code EC PRIVATE KEY}, {@code PRIVATE KEY}...) whose body is base64 and nothing
     * else; the key itself is not parsed, so any algorithm OpenSSH knows passes.
     */
    public static boolean isPrivateKey(String text) {
        if (text == null) {
            return false;
        }
        try (PemReader reader = new PemReader(new StringReader(text))) {
            PemObject pem = reader.readPemObject();
            return pem != null && pem.getType().endsWith("PRIVATE KEY") && pem.getContent().length > 0
                    && reader.readPemObject() == null && text.strip().endsWith("-----");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether the text is one {@code authorized_keys} line: {@code <type> <base64 blob> [comment]}, the blob
     * starting with the same type, as OpenSSH's wire format has it.
     */
    public static boolean isPublicKey(String text) {
        if (text == null) {
            return false;
        }
        String[] fields = text.strip().split("\\s+");
        if (fields.length < 2 || text.strip().contains("\n")) {
            return false;
        }
        try {
            ByteBuffer blob = ByteBuffer.wrap(Base64.getDecoder().decode(fields[1]));
            int length = blob.getInt();
            if (length != fields[0].length() || blob.remaining() < length) {
                return false;
            }
            byte[] type = new byte[length];
            blob.get(type);
            return fields[0].equals(new String(type, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException | BufferUnderflowException e) {
            return false;
        }
    }
}
