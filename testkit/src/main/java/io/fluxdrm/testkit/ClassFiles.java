package io.fluxdrm.testkit;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What a class file holds, for the rules that read it rather than its references: PMIx allocation
 * and session-control keys are compile-time constants, inlined where they are used, so only a class
 * file's constant pool shows that a class uses one (D548). Read by the checks module's {@code
 * TypedPmixKeys} and by {@code pmix-native}'s own test of the same rule (D579).
 */
public final class ClassFiles {
  private ClassFiles() {}

  /**
   * The prefixes of the PMIx allocation and session-control key strings, and the one provisional
   * key without one (D357).
   */
  public static final List<String> PMIX_KEY_PREFIXES =
      List.of("pmix.alloc.", "pmix.ssn.", "pmix.ssnctrl.", "pmix.spawn.alloc");

  /**
   * The PMIx allocation and session-control key strings of a class file.
   *
   * @param classFile the class file
   * @return its key strings, in constant-pool order
   * @throws IOException when it cannot be read or is not a class file
   */
  public static List<String> pmixKeys(InputStream classFile) throws IOException {
    List<String> out = new ArrayList<>();
    for (String s : utf8Constants(classFile)) {
      if (PMIX_KEY_PREFIXES.stream().anyMatch(s::startsWith)) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * The CONSTANT_Utf8 entries of a class file's constant pool (JVMS §4.4), where every string
   * literal's text is.
   *
   * @param classFile the class file
   * @return the entries, in order
   * @throws IOException when it cannot be read or is not a class file
   */
  public static List<String> utf8Constants(InputStream classFile) throws IOException {
    DataInputStream in = new DataInputStream(classFile);
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    int count = in.readUnsignedShort();
    List<String> out = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> out.add(in.readUTF());
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
        case 15 -> in.skipNBytes(3);
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
        case 5, 6 -> {
          in.skipNBytes(8);
          i++; // a long or a double takes two entries
        }
        default -> throw new IOException("constant " + i + ": unknown tag " + tag);
      }
    }
    return out;
  }
}
