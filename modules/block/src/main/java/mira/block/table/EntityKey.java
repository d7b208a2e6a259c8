package mira.block.table;

import java.nio.charset.StandardCharsets;

/**
 * The stable identity of the entity that emitted a resource: a 64-bit hash over only the attributes
 * OpenTelemetry's semantic conventions define as identifying, at the most specific level present.
 * First matching rule wins:
 *
 * <ol>
 *   <li>service.name + service.instance.id (+ service.namespace)
 *   <li>k8s.pod.uid (+ k8s.container.name)
 *   <li>container.id
 *   <li>host.id, else host.name (+ process.pid)
 *   <li>service.name (+ service.namespace)
 * </ol>
 *
 * Otherwise the key is {@link #NO_IDENTITY}. The rule's number is hashed in, so host.id "abc" and
 * container.id "abc" differ, and other attributes never are, so an attribute appearing mid-stream
 * does not fork the entity. The hash (FNV-1a 64 over key, 0, value, 0 per part, then a murmur
 * finaliser) is part of the on-disk format: never change it.
 */
public final class EntityKey {
  public static final long NO_IDENTITY = 0;

  static final String[] NAMES = {
    "service.name", "service.instance.id", "service.namespace", "k8s.pod.uid", "k8s.container.name",
    "container.id", "host.id", "host.name", "process.pid"
  };
  static final int SERVICE_NAME = 0;
  static final int SERVICE_INSTANCE = 1;
  static final int SERVICE_NAMESPACE = 2;
  static final int POD_UID = 3;
  static final int CONTAINER_NAME = 4;
  static final int CONTAINER_ID = 5;
  static final int HOST_ID = 6;
  static final int HOST_NAME = 7;
  static final int PROCESS_PID = 8;

  private static final byte[][] NAME_BYTES = new byte[NAMES.length][];

  static {
    for (int i = 0; i < NAMES.length; i++) {
      NAME_BYTES[i] = NAMES[i].getBytes(StandardCharsets.UTF_8);
    }
  }

  /** Canonical text of each identifying attribute seen, by index into {@link #NAMES}, or null. */
  private final byte[][] values = new byte[NAMES.length][];

  /** Forgets the attributes of the previous resource. */
  public void clear() {
    java.util.Arrays.fill(values, null);
  }

  /** Which identifying attribute {@code key} is, or -1. */
  static int indexOf(byte[] b, int off, int len) {
    for (int i = 0; i < NAME_BYTES.length; i++) {
      byte[] n = NAME_BYTES[i];
      if (n.length == len && java.util.Arrays.equals(n, 0, len, b, off, off + len)) {
        return i;
      }
    }
    return -1;
  }

  /** Records the canonical text of identifying attribute {@code index}. The last one wins. */
  void put(int index, byte[] canonicalText) {
    values[index] = canonicalText;
  }

  /** The key for the attributes recorded since {@link #clear()}. */
  public long key() {
    if (has(SERVICE_NAME) && has(SERVICE_INSTANCE)) {
      return hash(1, SERVICE_NAME, SERVICE_INSTANCE, SERVICE_NAMESPACE);
    }
    if (has(POD_UID)) {
      return hash(2, POD_UID, CONTAINER_NAME);
    }
    if (has(CONTAINER_ID)) {
      return hash(3, CONTAINER_ID);
    }
    if (has(HOST_ID)) {
      return hash(4, HOST_ID, PROCESS_PID);
    }
    if (has(HOST_NAME)) {
      return hash(4, HOST_NAME, PROCESS_PID);
    }
    if (has(SERVICE_NAME)) {
      return hash(5, SERVICE_NAME, SERVICE_NAMESPACE);
    }
    return NO_IDENTITY;
  }

  private boolean has(int i) {
    return values[i] != null;
  }

  private long hash(int rule, int... parts) {
    long h = 0xcbf29ce484222325L;
    h = (h ^ rule) * 0x100000001b3L;
    for (int p : parts) {
      byte[] v = values[p];
      if (v == null) {
        continue;
      }
      for (byte b : NAME_BYTES[p]) {
        h = (h ^ (b & 0xFF)) * 0x100000001b3L;
      }
      h = (h ^ 0) * 0x100000001b3L;
      for (byte b : v) {
        h = (h ^ (b & 0xFF)) * 0x100000001b3L;
      }
      h = (h ^ 0) * 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h == NO_IDENTITY ? 1 : h;
  }
}
