# Sourced by the bench scripts: a sandbox of their own (sandbox-session.sh) and the
# password every bench user logs in with, in a 0600 file ($work/password).
# Needs: $bin; sets what sandbox-session.sh sets.
. "$(dirname "${BASH_SOURCE[0]}")/sandbox-session.sh"
printf 'bench-password-1\n' >"$work/password"
chmod 600 "$work/password"
