import java.io.ByteArrayInputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

/**
 * Runs the Java champion (class {@code Prologin}) under the protocol of protocol.md. The
 * launcher moves the referee's pipes to fds 3 and 4 and points fd 1 at stderr, fd 0 at
 * /dev/null: {@code System.out} thus goes to the log. Callbacks are the public no-argument
 * methods of {@code Prologin} (one instance); a callback it lacks does nothing.
 */
public final class ProloginMain {
  private static final List<String> CALLBACKS =
      Arrays.asList("init_game", "jouer", "enchere", "placement", "end_game");

  private ProloginMain() {}

  /** The inherited descriptor {@code n}: Java has no public way to name one, hence the
   * launcher's {@code --add-opens java.base/java.io=ALL-UNNAMED}. (Reopening it by
   * /proc/self/fd/N is refused in the jail.) */
  private static FileDescriptor descriptor(int n) throws ReflectiveOperationException {
    FileDescriptor fd = new FileDescriptor();
    Field field = FileDescriptor.class.getDeclaredField("fd");
    field.setAccessible(true);
    field.setInt(fd, n);
    return fd;
  }

  public static void main(String[] args) throws Exception {
    try {
      Interface.connect(new FileInputStream(descriptor(3)), new FileOutputStream(descriptor(4)));
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println("prologin kit (Java): fds 3 and 4 must be the referee's pipes: "
          + "start the champion with its `champion` launcher (" + e + ")");
      System.exit(2);
    }
    System.setIn(new ByteArrayInputStream(new byte[0]));
    Class<?> cls = Class.forName("Prologin");
    Object champion = cls.getDeclaredConstructor().newInstance();
    Method[] methods = new Method[CALLBACKS.size()];
    for (int i = 0; i < methods.length; i++) {
      try {
        methods[i] = cls.getMethod(CALLBACKS.get(i));
      } catch (NoSuchMethodException e) {
        methods[i] = null;
      }
    }
    boolean ended = false;
    for (;;) {
      String name = Interface.readText();
      if (name == null) break;
      int k = CALLBACKS.indexOf(name);
      if (k < 0) {
        Interface.fail("unknown callback `" + name.substring(0, Math.min(60, name.length()))
            + "` from the referee");
      }
      Interface.callback = name;
      ended = k == 4;
      Interface.markDirty();
      if (methods[k] != null) {
        try {
          methods[k].invoke(champion);
        } catch (InvocationTargetException e) {
          // The champion's exception: its trace, then the kit's line naming it and where
          // it was thrown, last in the log, which the referee's crash report quotes.
          Throwable cause = e.getCause();
          System.out.flush();
          cause.printStackTrace();
          StackTraceElement[] at = cause.getStackTrace();
          System.err.println("prologin kit (Java): error in " + name + ": " + cause
              + (at.length > 0 ? " (" + at[0].getFileName() + ":" + at[0].getLineNumber() + ")" : ""));
          System.err.flush();
          Runtime.getRuntime().halt(1);
        }
      }
      System.out.flush();
      Interface.send("fin\n");
    }
    if (!ended) {
      System.err.println("prologin kit (Java): the referee closed the connection before end_game");
      System.exit(1);
    }
    System.exit(0);
  }
}
