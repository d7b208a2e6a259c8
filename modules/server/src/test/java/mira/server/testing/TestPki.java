package mira.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate authority made at test time with the JDK's keytool (no key material is checked
 * in): a CA, and leaf certificates it signs for 127.0.0.1/localhost, written as the PEM files an
 * operator would give Mira, with the private key in any of the forms Mira reads.
 */
public final class TestPki {
  private static final String PASS = "test-pass";
  private static final Path KEYTOOL = Path.of(System.getProperty("java.home"), "bin", "keytool");

  /** How a leaf's private key is written. */
  public enum KeyForm { PKCS8, PKCS1_RSA, SEC1_EC }

  /** A leaf: its chain file (leaf then CA), key file and serial. */
  public record Leaf(Path chain, Path key, Path keystore, java.math.BigInteger serial) {
    public byte[] chainPem() throws IOException {
      return Files.readAllBytes(chain);
    }

    public byte[] keyPem() throws IOException {
      return Files.readAllBytes(key);
    }
  }

  private final Path dir;
  public final Path caPem;
  private int leaves;

  /** Makes a new CA (EC P-256) called {@code name} under {@code dir}. */
  public TestPki(Path dir, String name) throws Exception {
    this.dir = Files.createDirectories(dir.resolve(name));
    keytool("-genkeypair", "-keystore", ks("ca"), "-storetype", "PKCS12", "-storepass", PASS, "-alias", "ca",
        "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name, "-ext", "bc:c", "-validity", "3");
    this.caPem = this.dir.resolve("ca.pem");
    keytool("-exportcert", "-rfc", "-keystore", ks("ca"), "-storepass", PASS, "-alias", "ca", "-file", caPem.toString());
  }

  private String ks(String n) {
    return dir.resolve(n + ".p12").toString();
  }

  /** A leaf for server and client use, RSA or EC, with its key written in {@code form}. */
  public Leaf leaf(String cn, String keyAlg, KeyForm form) throws Exception {
    String n = "leaf" + (++leaves);
    List<String> gen = new ArrayList<>(List.of("-genkeypair", "-keystore", ks(n), "-storetype", "PKCS12",
        "-storepass", PASS, "-alias", "k", "-dname", "CN=" + cn, "-validity", "3"));
    if (keyAlg.equals("EC")) {
      gen.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1"));
    } else {
      gen.addAll(List.of("-keyalg", "RSA", "-keysize", "2048"));
    }
    keytool(gen.toArray(String[]::new));
    Path csr = dir.resolve(n + ".csr");
    Path crt = dir.resolve(n + ".crt");
    keytool("-certreq", "-keystore", ks(n), "-storepass", PASS, "-alias", "k", "-file", csr.toString());
    keytool("-gencert", "-keystore", ks("ca"), "-storepass", PASS, "-alias", "ca", "-infile", csr.toString(),
        "-outfile", crt.toString(), "-rfc", "-validity", "3", "-ext", "san=ip:127.0.0.1,dns:localhost",
        "-ext", "eku=serverAuth,clientAuth");
    Path chain = dir.resolve(n + "-chain.pem");
    Files.writeString(chain, Files.readString(crt) + Files.readString(caPem));
    // Put the signed certificate back beside its key, so the keystore can act as a client identity.
    keytool("-importcert", "-noprompt", "-keystore", ks(n), "-storepass", PASS, "-alias", "k", "-file", chain.toString());
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(Path.of(ks(n)))) {
      store.load(in, PASS.toCharArray());
    }
    PrivateKey key = (PrivateKey) store.getKey("k", PASS.toCharArray());
    Path keyFile = dir.resolve(n + ".key");
    Files.writeString(keyFile, switch (form) {
      case PKCS8 -> pem("PRIVATE KEY", key.getEncoded());
      case PKCS1_RSA -> pem("RSA PRIVATE KEY", innerKey(key.getEncoded()));
      case SEC1_EC -> pem("EC PRIVATE KEY", sec1WithCurve(key.getEncoded()));
    });
    X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(Files.newInputStream(crt));
    return new Leaf(chain, keyFile, Path.of(ks(n)), cert.getSerialNumber());
  }

  /** A client SSL context that trusts this CA and, if {@code identity} is given, presents it. */
  public SSLContext clientContext(Leaf identity) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(Files.newInputStream(caPem)));
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    KeyManagerFactory kmf = null;
    if (identity != null) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(identity.keystore())) {
        ks.load(in, PASS.toCharArray());
      }
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, PASS.toCharArray());
    }
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return c;
  }

  public byte[] caBytes() throws IOException {
    return Files.readAllBytes(caPem);
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der) + "\n-----END " + type + "-----\n";
  }

  private void keytool(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(KEYTOOL.toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + new String(out));
    }
  }

  // --- just enough DER to take the PKCS#8 wrapper off a key (test side, independent of Mira's Pem) ---

  /** [tag, headerLength, valueLength] of the element at {@code at}. */
  private static int[] header(byte[] b, int at) {
    int len = b[at + 1] & 0xff;
    int h = 2;
    if (len > 0x7f) {
      int n = len & 0x7f;
      len = 0;
      for (int i = 0; i < n; i++) {
        len = (len << 8) | (b[at + 2 + i] & 0xff);
      }
      h += n;
    }
    return new int[] {b[at] & 0xff, h, len};
  }

  private static List<byte[]> children(byte[] b, int at) {
    int[] h = header(b, at);
    List<byte[]> out = new ArrayList<>();
    int p = at + h[1];
    int end = p + h[2];
    while (p < end) {
      int[] c = header(b, p);
      byte[] el = new byte[c[1] + c[2]];
      System.arraycopy(b, p, el, 0, el.length);
      out.add(el);
      p += el.length;
    }
    return out;
  }

  private static byte[] value(byte[] element) {
    int[] h = header(element, 0);
    byte[] v = new byte[h[2]];
    System.arraycopy(element, h[1], v, 0, v.length);
    return v;
  }

  /** PrivateKeyInfo's privateKey OCTET STRING contents: PKCS#1 for RSA, SEC 1 for EC. */
  private static byte[] innerKey(byte[] pkcs8) {
    return value(children(pkcs8, 0).get(2));
  }

  /** The SEC 1 key with its [0] named-curve field, as openssl writes EC PRIVATE KEY. */
  private static byte[] sec1WithCurve(byte[] pkcs8) {
    List<byte[]> top = children(pkcs8, 0);
    byte[] curveOid = children(top.get(1), 0).get(1);
    List<byte[]> sec1 = children(innerKey(pkcs8), 0);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(sec1.get(0)); // version
    body.writeBytes(sec1.get(1)); // the private key octets
    body.writeBytes(tlv(0xa0, curveOid));
    for (int i = 2; i < sec1.size(); i++) {
      if ((sec1.get(i)[0] & 0xff) != 0xa0) {
        body.writeBytes(sec1.get(i)); // [1] public key, when the JDK wrote one
      }
    }
    return tlv(0x30, body.toByteArray());
  }

  private static byte[] tlv(int tag, byte[] v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    if (v.length < 0x80) {
      out.write(v.length);
    } else if (v.length < 0x100) {
      out.write(0x81);
      out.write(v.length);
    } else {
      out.write(0x82);
      out.write(v.length >> 8);
      out.write(v.length);
    }
    out.writeBytes(v);
    return out.toByteArray();
  }
}
