package io.fluxdrm.pmix;

/**
 * The {@link PmixKey#PMIX_ALLOC_TIME} string of OpenPMIx and PRRTE: {@code
 * months:days:hours:minutes:seconds}, read from the right, so {@code "2"} is 2 s, {@code "1:30"} 90
 * s and {@code "1:0:0:0:0"} one month of 30 days. Every field is one or more decimal digits; there
 * are 1 to 5 fields. Anything else (empty fields, signs, fractions, a sixth field) is refused, as
 * PRRTE refuses it.
 */
public final class AllocTime {
  private AllocTime() {}

  private static final String FORM = "[[[[months:]days:]hours:]minutes:]seconds, digits only";
  private static final long[] UNIT = {1, 60, 3600, 86_400, 30 * 86_400L};

  /**
   * Parses a time string.
   *
   * @param text the string
   * @return the seconds it denotes
   * @throws PmixException (status {@link PmixStatus#PMIX_ERR_BAD_PARAM}) naming the bad field
   */
  public static long parseSeconds(String text) {
    String where = PmixKey.PMIX_ALLOC_TIME + " " + Values.render(text) + ": ";
    if (text.isEmpty()) {
      throw new PmixException(where + "empty (expected: " + FORM + ")");
    }
    String[] fields = text.split(":", -1);
    if (fields.length > UNIT.length) {
      throw new PmixException(
          where + fields.length + " fields (expected: at most " + UNIT.length + ", " + FORM + ")");
    }
    long total = 0;
    for (int i = 0; i < fields.length; i++) {
      String f = fields[i];
      String which = "field " + (i + 1) + " of " + fields.length;
      if (f.isEmpty()) {
        throw new PmixException(where + which + " is empty (expected: " + FORM + ")");
      }
      for (int c = 0; c < f.length(); c++) {
        if (f.charAt(c) < '0' || f.charAt(c) > '9') {
          throw new PmixException(
              where + which + " " + Values.render(f) + " is not digits (expected: " + FORM + ")");
        }
      }
      long unit = UNIT[fields.length - 1 - i];
      try {
        total = Math.addExact(total, Math.multiplyExact(Long.parseLong(f), unit));
      } catch (ArithmeticException | NumberFormatException e) {
        throw new PmixException(where + which + " is too large (expected: a total below 2^63 s)");
      }
    }
    return total;
  }
}
