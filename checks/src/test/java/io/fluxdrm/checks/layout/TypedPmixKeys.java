package io.fluxdrm.checks.layout;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.Source;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import io.fluxdrm.testkit.ClassFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * PMIx allocation and session-control keys are read and written by {@code io.fluxdrm.pmix.request}
 * alone (issue 31, scope 3; D548). The keys are compile-time constants, inlined where they are
 * used, so no field access shows them: the rule reads each class file's constant pool for the key
 * strings instead ({@link ClassFiles}, which pmix-native's own test of the rule reads too, D579).
 */
final class TypedPmixKeys {
  private TypedPmixKeys() {}

  /**
   * Outside the typed package and the key catalog, no class holds a key string; the rule's own
   * reader holds the keys' prefixes.
   */
  static final ArchRule KEYS_IN_THE_TYPED_PACKAGE =
      ArchRuleDefinition.classes()
          .that()
          .resideOutsideOfPackages("io.fluxdrm.pmix", "io.fluxdrm.pmix.request")
          .and()
          .doNotBelongToAnyOf(ClassFiles.class)
          .should(holdNoKey())
          .as(
              "PMIx allocation and session-control keys are read and written in"
                  + " io.fluxdrm.pmix.request only");

  private static ArchCondition<JavaClass> holdNoKey() {
    return new ArchCondition<>("hold no PMIx allocation or session-control key string") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        List<String> keys = keys(c);
        if (!keys.isEmpty()) {
          events.add(SimpleConditionEvent.violated(c, c.getName() + " holds " + keys));
        }
      }
    };
  }

  /**
   * The key strings in the class file of {@code c}.
   *
   * @param c a class
   * @return its key strings, in constant-pool order
   */
  static List<String> keys(JavaClass c) {
    Source source =
        c.getSource().orElseThrow(() -> new IllegalStateException(c.getName() + ": no class file"));
    try (InputStream in = source.getUri().toURL().openStream()) {
      return ClassFiles.pmixKeys(in);
    } catch (IOException e) {
      throw new UncheckedIOException(source.getUri().toString(), e);
    }
  }
}
