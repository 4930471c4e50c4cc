package dev.muster.job.plugin;

import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.params.RSAPrivateCrtKeyParameters;
import org.bouncycastle.crypto.util.OpenSSHPrivateKeyUtil;
import org.bouncycastle.crypto.util.OpenSSHPublicKeyUtil;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;
import org.bouncycastle.util.io.pem.PemWriter;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;

/**
 * An ssh key pair as OpenSSH reads it: the private key in PEM ({@code RSA PRIVATE KEY}) and the public key
 * as an {@code authorized_keys} line. The JDK generates the RSA pair; Bouncy Castle writes both formats.
 * {@link #toString()} shows no key material, so the pair cannot end up in a log by accident.
 */
public final class SshKeyPair {
    /** RSA modulus size: OpenSSH's own default for new RSA keys. */
    static final int RSA_BITS = 3072;

    private final String privateKey;
    private final String publicKey;

    /** A pair given as text, e.g. through the ssh plugin's {@code --ssh-private-key} and {@code --ssh-public-key}. */
    public SshKeyPair(String privateKey, String publicKey) {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
    }

    /** A freshly generated RSA pair. */
    public static SshKeyPair generate() {
        KeyPair pair;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(RSA_BITS);
            pair = generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK offers no RSA key generator", e);
        }
        RSAPrivateCrtKey key = (RSAPrivateCrtKey) pair.getPrivate();
        RSAPublicKey pub = (RSAPublicKey) pair.getPublic();
        RSAPrivateCrtKeyParameters priv = new RSAPrivateCrtKeyParameters(key.getModulus(), key.getPublicExponent(),
                key.getPrivateExponent(), key.getPrimeP(), key.getPrimeQ(), key.getPrimeExponentP(),
                key.getPrimeExponentQ(), key.getCrtCoefficient());
        StringWriter pem = new StringWriter();
        try (PemWriter writer = new PemWriter(pem)) {
            // For an RSA key OpenSSHPrivateKeyUtil yields the PKCS#1 structure, which OpenSSH reads as PEM.
            writer.writeObject(new PemObject("RSA PRIVATE KEY", OpenSSHPrivateKeyUtil.encodePrivateKey(priv)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] blob;
        try {
            blob = OpenSSHPublicKeyUtil.encodePublicKey(new RSAKeyParameters(false, pub.getModulus(), pub.getPublicExponent()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SshKeyPair(pem.toString(), "ssh-rsa " + new String(Base64.getEncoder().encode(blob), StandardCharsets.US_ASCII));
    }

    /** The private key, PEM. */
    public String privateKey() {
        return privateKey;
    }

    /** The public key, one {@code authorized_keys} line. */
    public String publicKey() {
        return publicKey;
    }

    @Override
    public String toString() {
        return "SshKeyPair[redacted]";
    }
}
