//! A classic BPF interpreter for seccomp programs (tests only): the answer of a program to
//! one `struct seccomp_data`, and how many instructions it walked to get it. It knows the
//! instructions the filters use and refuses any other, as a program the kernel would run
//! differently.

use nix::libc;

/// One system call as the filter sees it (`struct seccomp_data`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Call {
    pub(super) nr: u32,
    pub(super) arch: u32,
    pub(super) args: [u64; 6],
}

impl Call {
    /// The 32-bit word at `offset` of `struct seccomp_data` (little-endian).
    fn word(&self, offset: u32) -> u32 {
        match offset {
            0 => self.nr,
            4 => self.arch,
            // The instruction pointer: no filter reads it.
            8 | 12 => 0,
            16..=63 if offset.is_multiple_of(4) => {
                let arg = self.args[(offset as usize - 16) / 8];
                if offset.is_multiple_of(8) {
                    arg as u32
                } else {
                    (arg >> 32) as u32
                }
            }
            _ => panic!("a load at {offset}, outside struct seccomp_data"),
        }
    }
}

/// The answer of `program` to `call` and the number of instructions walked.
pub(super) fn run(program: &[libc::sock_filter], call: &Call) -> (u32, usize) {
    let mut a = 0u32;
    let mut pc = 0usize;
    let mut walked = 0usize;
    loop {
        let insn = program
            .get(pc)
            .unwrap_or_else(|| panic!("ran off the end at {pc}"));
        walked += 1;
        let code = u32::from(insn.code);
        let jump = |taken: bool| pc + 1 + usize::from(if taken { insn.jt } else { insn.jf });
        pc = match code {
            c if c == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                a = call.word(insn.k);
                pc + 1
            }
            c if c == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K => {
                a &= insn.k;
                pc + 1
            }
            c if c == libc::BPF_RET | libc::BPF_K => return (insn.k, walked),
            c if c == libc::BPF_JMP | libc::BPF_JA => pc + 1 + insn.k as usize,
            c if c == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K => jump(a == insn.k),
            c if c == libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K => jump(a >= insn.k),
            c if c == libc::BPF_JMP | libc::BPF_JGT | libc::BPF_K => jump(a > insn.k),
            c if c == libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K => jump(a & insn.k != 0),
            _ => panic!("instruction {code:#x} at {pc}: not one the filters use"),
        };
    }
}
