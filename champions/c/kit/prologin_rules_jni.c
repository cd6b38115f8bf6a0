/* prologin_rules_jni.c -- the board's rules of prologin_rules_lib.c for the Java kit,
 * through JNI: the native methods of the kit's class `Interface` (java/kit/Interface.java)
 * over the one C implementation of `construction_possible`, `route_possible` and
 * `distance`. Built with it as libprologin_rules_jni.so (rules_lib.mk, where a JDK's
 * jni.h is found), which the Java kit loads from $PROLOGIN_KITS/c (/kits/c in the jail).
 *
 * Owns: the four JNI entry points; the board and the rules are prologin_rules_lib.c's.
 */
#include <jni.h>

#include "prologin_rules_lib.c"

/* The board just cached: `kinds` and `owners`, the byte arrays of 10,000 characters of
 * the kit's cache (the second and third strings of `etat`). */
JNIEXPORT void JNICALL Java_Interface_rulesBoard(JNIEnv *env, jclass cls, jbyteArray kind_chars,
                                                 jbyteArray owner_chars) {
  (void)cls;
  (*env)->GetByteArrayRegion(env, kind_chars, 0, CELLS, (jbyte *)kinds);
  (*env)->GetByteArrayRegion(env, owner_chars, 0, CELLS, (jbyte *)owners);
  board_generation++;
}

JNIEXPORT jint JNICALL Java_Interface_rulesRoutePossible(JNIEnv *env, jclass cls, jint x, jint y) {
  (void)env, (void)cls;
  return rule_route_possible(x, y);
}

JNIEXPORT jint JNICALL Java_Interface_rulesConstructionPossible(JNIEnv *env, jclass cls, jint x,
                                                                jint y) {
  (void)env, (void)cls;
  return rule_construction_possible(x, y);
}

JNIEXPORT jint JNICALL Java_Interface_rulesDistance(JNIEnv *env, jclass cls, jint x1, jint y1,
                                                    jint x2, jint y2) {
  (void)env, (void)cls;
  return rule_distance(x1, y1, x2, y2);
}
