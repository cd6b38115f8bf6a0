// An inherited Unix descriptor as a Stream, through libc's read and write: mono's own
// FileStream only knows the descriptors it opened (and 0, 1, 2), and reopening
// /proc/self/fd/N is refused in the jail. Interrupted calls (mono's collector uses
// signals) are retried.
using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Prologin
{
    sealed class FdStream : Stream
    {
        const int EINTR = 4;
        const int EAGAIN = 11;
        readonly int fd;

        [DllImport("libc", SetLastError = true)]
        static extern IntPtr read(int fd, byte[] buf, IntPtr count);

        [DllImport("libc", SetLastError = true)]
        static extern IntPtr write(int fd, byte[] buf, IntPtr count);

        [DllImport("libc", SetLastError = true)]
        static extern int fcntl(int fd, int cmd);

        internal FdStream(int fd)
        {
            this.fd = fd;
            if (fcntl(fd, 1 /* F_GETFD */) < 0) throw new IOException("descriptor " + fd + " is not open");
        }

        public override int Read(byte[] buffer, int offset, int count)
        {
            byte[] tmp = offset == 0 ? buffer : new byte[count];
            for (;;)
            {
                long n = (long)read(fd, tmp, (IntPtr)count);
                if (n >= 0)
                {
                    if (tmp != buffer) Array.Copy(tmp, 0, buffer, offset, (int)n);
                    return (int)n;
                }
                int errno = Marshal.GetLastWin32Error();
                if (errno != EINTR && errno != EAGAIN) throw new IOException("read: errno " + errno);
            }
        }

        public override void Write(byte[] buffer, int offset, int count)
        {
            byte[] data = buffer;
            if (offset != 0)
            {
                data = new byte[count];
                Array.Copy(buffer, offset, data, 0, count);
            }
            int done = 0;
            while (done < count)
            {
                byte[] rest = done == 0 ? data : new byte[count - done];
                if (done != 0) Array.Copy(data, done, rest, 0, count - done);
                long n = (long)write(fd, rest, (IntPtr)(count - done));
                if (n >= 0)
                {
                    done += (int)n;
                    continue;
                }
                int errno = Marshal.GetLastWin32Error();
                if (errno != EINTR && errno != EAGAIN) throw new IOException("write: errno " + errno);
            }
        }

        public override void Flush() { }
        public override bool CanRead { get { return true; } }
        public override bool CanWrite { get { return true; } }
        public override bool CanSeek { get { return false; } }
        public override long Length { get { throw new NotSupportedException(); } }
        public override long Position
        {
            get { throw new NotSupportedException(); }
            set { throw new NotSupportedException(); }
        }
        public override long Seek(long offset, SeekOrigin origin) { throw new NotSupportedException(); }
        public override void SetLength(long value) { throw new NotSupportedException(); }
    }
}
