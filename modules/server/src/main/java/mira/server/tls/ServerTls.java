package mira.server.tls;

import io.helidon.common.tls.Tls;
import io.helidon.common.tls.TlsClientAuth;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * The listeners' TLS material from {@code tls.cert}, {@code tls.key} and {@code tls.client_ca}:
 * loaded, checked (the key must belong to the first certificate, so a rotation that has written
 * one file but not yet the other is refused rather than served), and turned into Helidon's
 * {@link Tls}. Immutable.
 *
 * @param cert the PEM certificate chain, the server's own certificate first
 * @param key the PEM private key of that certificate
 * @param clientCa the PEM CA certificates a client's certificate must chain to, or empty for no mTLS
 */
public record ServerTls(Path cert, Path key, Optional<Path> clientCa) {

  /** Loaded material; {@link #tls} builds a listener's TLS from it. */
  public record Material(List<X509Certificate> chain, PrivateKey key, List<X509Certificate> clientCa) {
    /** A new Helidon TLS for one listener (each listener gets its own, so each reloads on its own). */
    public Tls tls(boolean requireClientCert) {
      return Tls.builder()
          .privateKey(key)
          .privateKeyCertChain(chain)
          .trust(clientCa)
          .clientAuth(requireClientCert ? TlsClientAuth.REQUIRED : TlsClientAuth.NONE)
          .endpointIdentificationAlgorithm(Tls.ENDPOINT_IDENTIFICATION_NONE)
          .build();
    }

    /** The server certificate's subject and expiry, for the log line. */
    public String describe() {
      X509Certificate c = chain.getFirst();
      return c.getSubjectX500Principal().getName() + " (expires " + c.getNotAfter().toInstant() + ")";
    }
  }

  /** Whether clients must present a certificate. */
  public boolean mutual() {
    return clientCa.isPresent();
  }

  /**
   * Reads and checks all files.
   *
   * @throws BadTlsFile naming the file that is wrong
   */
  public Material load() throws BadTlsFile {
    List<X509Certificate> chain = Pem.certificates(cert);
    PrivateKey k = Pem.privateKey(key);
    if (!belongs(k, chain.getFirst().getPublicKey())) {
      throw new BadTlsFile(key + ": this key does not belong to the first certificate in " + cert);
    }
    List<X509Certificate> ca = clientCa.isPresent() ? Pem.certificates(clientCa.get()) : List.of();
    return new Material(List.copyOf(chain), k, List.copyOf(ca));
  }

  /** Signs a fixed message with the key and verifies it with the certificate's public key. */
  private static boolean belongs(PrivateKey k, PublicKey pub) {
    if (!k.getAlgorithm().equals(pub.getAlgorithm())) {
      return false;
    }
    String algorithm = k.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
    byte[] message = "mira key check".getBytes(StandardCharsets.US_ASCII);
    try {
      Signature s = Signature.getInstance(algorithm);
      s.initSign(k);
      s.update(message);
      byte[] sig = s.sign();
      Signature v = Signature.getInstance(algorithm);
      v.initVerify(pub);
      v.update(message);
      return v.verify(sig);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
