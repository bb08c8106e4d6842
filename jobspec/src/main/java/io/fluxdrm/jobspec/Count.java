package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A resource count (RFC 14): a fixed integer, a range (RFC 45, as a string or an object), or an
 * idset of acceptable values.
 */
public sealed interface Count permits Count.Fixed, Count.Range, Count.Values {

  /** The smallest acceptable value. */
  long min();

  /** The count as it is written in a jobspec. */
  JsonNode toJson();

  /**
   * A plain integer count.
   *
   * @param value the count
   */
  record Fixed(long value) implements Count {
    @Override
    public long min() {
      return value;
    }

    @Override
    public JsonNode toJson() {
      return Jobspec.number(value);
    }

    @Override
    public String toString() {
      return Long.toString(value);
    }
  }

  /**
   * A range: at least {@code min}, at most {@code max} ({@link #UNBOUNDED} when absent), stepping
   * by {@code operator} and {@code operand}.
   *
   * @param min the least value, >= 1
   * @param max the greatest value, or {@link #UNBOUNDED}
   * @param operator {@code +}, {@code *} or {@code ^}
   * @param operand the step, >= 1 ({@code >= 2} for {@code *} and {@code ^})
   * @param text the string form when the jobspec wrote it as a string, else {@code null}
   */
  record Range(long min, long max, char operator, long operand, String text) implements Count {
    /** The value of {@code max} when the range has no upper bound. */
    public static final long UNBOUNDED = -1;

    /** True when there is no upper bound. */
    public boolean unbounded() {
      return max == UNBOUNDED;
    }

    @Override
    public JsonNode toJson() {
      if (text != null) {
        return JsonNodeFactory.instance.textNode(text);
      }
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      o.set("min", Jobspec.number(min));
      if (!unbounded()) {
        o.set("max", Jobspec.number(max));
      }
      if (operand != 1 || operator != '+') {
        o.put("operator", String.valueOf(operator));
        o.set("operand", Jobspec.number(operand));
      }
      return o;
    }

    /** flux's summary form: {@code 4+}, {@code 2-32:2:*}. */
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder().append(min);
      sb.append(unbounded() ? "+" : "-" + max);
      if (operand != 1 || operator != '+') {
        sb.append(':').append(operand);
        if (operator != '+') {
          sb.append(':').append(operator);
        }
      }
      return sb.toString();
    }
  }

  /**
   * An RFC 22 idset of acceptable values, e.g. {@code "4,9,16,25"}.
   *
   * @param idset the idset text as written
   * @param min the smallest member
   */
  record Values(String idset, long min) implements Count {
    @Override
    public JsonNode toJson() {
      return JsonNodeFactory.instance.textNode(idset);
    }

    @Override
    public String toString() {
      return idset;
    }
  }
}
