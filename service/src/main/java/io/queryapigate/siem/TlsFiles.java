package io.queryapigate.siem;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A TLS client context from PEM files: the CA certificates to trust (else the JDK's), and optionally a client
 * certificate chain with its PKCS#8 key for mutual TLS. Errors name what is wrong with which file.
 */
public final class TlsFiles {
    private static final Pattern PKCS8 = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
    private static final char[] NO_PASSWORD = new char[0];

    private TlsFiles() {}

    /**
     * @param caFile     PEM certificates to trust, or null for the JDK's trusted authorities
     * @param clientCert PEM certificate chain (the client's first), or null for no client certificate
     * @param clientKey  PEM PKCS#8 private key of {@code clientCert} (with it, or both null)
     */
    public static SSLContext context(Path caFile, Path clientCert, Path clientKey) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (caFile == null) {
                trust.init((KeyStore) null);
            } else {
                KeyStore trusted = KeyStore.getInstance("PKCS12");
                trusted.load(null, null);
                int i = 0;
                for (Certificate c : certificates(caFile)) {
                    trusted.setCertificateEntry("ca-" + i++, c);
                }
                trust.init(trusted);
            }
            KeyManagerFactory keys = null;
            if (clientCert != null) {
                KeyStore own = KeyStore.getInstance("PKCS12");
                own.load(null, null);
                own.setKeyEntry("client", privateKey(clientKey), NO_PASSWORD,
                        certificates(clientCert).toArray(Certificate[]::new));
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(own, NO_PASSWORD);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static Collection<? extends Certificate> certificates(Path file) throws IOException {
        try {
            Collection<? extends Certificate> found = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(file)));
            if (found.isEmpty()) {
                throw new IllegalArgumentException(file + " holds no PEM certificate");
            }
            return found;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(file + " is not a PEM certificate file: " + e.getMessage(), e);
        }
    }

    private static PrivateKey privateKey(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        Matcher m = PKCS8.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException(file + " holds no unencrypted PKCS#8 key (-----BEGIN PRIVATE KEY-----);"
                    + " convert one with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8.pem");
        }
        byte[] der = Base64.getMimeDecoder().decode(m.group(1));
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "RSASSA-PSS"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException notThisOne) {
                // the PKCS#8 header names the algorithm; KeyFactory only tells by refusing the others
            }
        }
        throw new IllegalArgumentException(file + " holds a key of an algorithm other than RSA, EC or Ed25519");
    }
}
