package mira.server.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM certificates and private keys, read with the JDK only. Keys may be PKCS#8
 * ({@code PRIVATE KEY}, RSA or EC) or the older one-algorithm forms {@code RSA PRIVATE KEY}
 * (PKCS#1) and {@code EC PRIVATE KEY} (SEC 1), which are wrapped into PKCS#8 here because the
 * JDK's key factories take only PKCS#8. Encrypted keys are refused: the process has nowhere safe
 * to keep a passphrase.
 */
public final class Pem {
  private static final Pattern BLOCK = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s:,-]*?)-----END \\1-----");
  /** AlgorithmIdentifier of rsaEncryption with NULL parameters (RFC 8017 A.1). */
  private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
      (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
  /** The OID id-ecPublicKey (RFC 5480 2.1.1), encoded. */
  private static final byte[] EC_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

  private Pem() {}

  /** Every certificate in a PEM file, in file order; at least one. */
  public static List<X509Certificate> certificates(Path file) throws BadTlsFile {
    String text = read(file);
    List<X509Certificate> out = new ArrayList<>();
    try {
      CertificateFactory f = CertificateFactory.getInstance("X.509");
      Matcher m = BLOCK.matcher(text);
      while (m.find()) {
        if (!m.group(1).equals("CERTIFICATE")) {
          continue;
        }
        Certificate c = f.generateCertificate(new ByteArrayInputStream(decode(file, m.group(2))));
        out.add((X509Certificate) c);
      }
    } catch (CertificateException e) {
      throw new BadTlsFile(file + ": a CERTIFICATE block does not parse: " + e.getMessage());
    }
    if (out.isEmpty()) {
      throw new BadTlsFile(file + ": no PEM CERTIFICATE block");
    }
    return out;
  }

  /** The one private key in a PEM file. */
  public static PrivateKey privateKey(Path file) throws BadTlsFile {
    Matcher m = BLOCK.matcher(read(file));
    while (m.find()) {
      String type = m.group(1);
      switch (type) {
        case "PRIVATE KEY" -> {
          return pkcs8(file, decode(file, m.group(2)));
        }
        case "RSA PRIVATE KEY" -> {
          if (m.group(2).contains("Proc-Type:")) {
            throw encrypted(file);
          }
          return pkcs8(file, wrap(0, RSA_ALGORITHM, decode(file, m.group(2))));
        }
        case "EC PRIVATE KEY" -> {
          if (m.group(2).contains("Proc-Type:")) {
            throw encrypted(file);
          }
          byte[] sec1 = decode(file, m.group(2));
          return pkcs8(file, wrap(0, tlv(0x30, concat(EC_OID, curveOf(file, sec1))), sec1));
        }
        case "ENCRYPTED PRIVATE KEY" -> throw encrypted(file);
        default -> { } // e.g. EC PARAMETERS, which openssl writes before the key
      }
    }
    throw new BadTlsFile(file + ": no PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block");
  }

  private static BadTlsFile encrypted(Path file) {
    return new BadTlsFile(file + ": the private key is encrypted; give it unencrypted (file mode 0600)");
  }

  private static PrivateKey pkcs8(Path file, byte[] der) throws BadTlsFile {
    for (String algorithm : new String[] {"RSA", "EC"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException | RuntimeException e) {
        // try the next algorithm
      }
    }
    throw new BadTlsFile(file + ": the private key is neither an RSA nor an EC key the JDK can read");
  }

  /** PrivateKeyInfo ::= SEQUENCE { version, AlgorithmIdentifier, OCTET STRING key } (RFC 5208 5). */
  private static byte[] wrap(int version, byte[] algorithm, byte[] key) {
    return tlv(0x30, concat(new byte[] {0x02, 0x01, (byte) version}, algorithm, tlv(0x04, key)));
  }

  /**
   * The named curve of a SEC 1 ECPrivateKey: SEQUENCE { INTEGER 1, OCTET STRING, [0] OID, [1] BIT
   * STRING } (RFC 5915 3); the OID's encoding is returned whole.
   */
  private static byte[] curveOf(Path file, byte[] sec1) throws BadTlsFile {
    try {
      Der seq = new Der(sec1, 0);
      if (seq.tag != 0x30) {
        throw new BadTlsFile(file + ": EC PRIVATE KEY is not a DER sequence");
      }
      int p = seq.start;
      while (p < seq.end) {
        Der field = new Der(sec1, p);
        if (field.tag == 0xa0) {
          Der oid = new Der(sec1, field.start);
          if (oid.tag == 0x06) {
            byte[] out = new byte[oid.end - field.start];
            System.arraycopy(sec1, field.start, out, 0, out.length);
            return out;
          }
        }
        p = field.end;
      }
    } catch (IndexOutOfBoundsException e) {
      throw new BadTlsFile(file + ": EC PRIVATE KEY is truncated");
    }
    throw new BadTlsFile(file + ": EC PRIVATE KEY names no curve; write it as PKCS#8 (openssl pkcs8 -topk8 -nocrypt)");
  }

  /** One DER tag-length-value header: the tag, where the value starts and where it ends. */
  private static final class Der {
    final int tag;
    final int start;
    final int end;

    Der(byte[] b, int at) {
      tag = b[at] & 0xff;
      int len = b[at + 1] & 0xff;
      int p = at + 2;
      if (len > 0x7f) {
        int n = len & 0x7f;
        len = 0;
        for (int i = 0; i < n; i++) {
          len = (len << 8) | (b[p++] & 0xff);
        }
      }
      start = p;
      end = p + len;
      if (end > b.length || len < 0) {
        throw new IndexOutOfBoundsException(end);
      }
    }
  }

  private static byte[] tlv(int tag, byte[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
    out.write(tag);
    int n = value.length;
    if (n < 0x80) {
      out.write(n);
    } else if (n < 0x100) {
      out.write(0x81);
      out.write(n);
    } else if (n < 0x10000) {
      out.write(0x82);
      out.write(n >> 8);
      out.write(n);
    } else {
      out.write(0x83);
      out.write(n >> 16);
      out.write(n >> 8);
      out.write(n);
    }
    out.writeBytes(value);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static byte[] decode(Path file, String base64) throws BadTlsFile {
    try {
      return Base64.getMimeDecoder().decode(base64.replaceAll("(?m)^[A-Za-z-]+:.*$", ""));
    } catch (IllegalArgumentException e) {
      throw new BadTlsFile(file + ": a PEM block is not valid base64");
    }
  }

  private static String read(Path file) throws BadTlsFile {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new BadTlsFile(file + ": no such file");
    } catch (IOException e) {
      throw new BadTlsFile(file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }
}
