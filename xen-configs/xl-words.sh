# Sourced by apply-row.sh and lab/create-domains.sh: what xl said when it refused, in one line.
# Its first error line (libxl names the cause before the clean-up after it), else its last line;
# xl's banners ("Parsing config from", "Using config file") are not words about the refusal.
xl_words() {
  local said
  said=$(sed '/^[[:space:]]*$/d; /^Parsing config from/d; /^Using config file/d' <<<"$1")
  [ -n "$said" ] || { echo "(xl printed nothing)"; return; }
  { grep -i -m1 'error\|invalid\|failed\|illegal\|cannot\|not \|incorrect\|must' <<<"$said" || tail -1 <<<"$said"; } | head -1
}
