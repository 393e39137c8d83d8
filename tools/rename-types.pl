#!/usr/bin/perl
# rename-types.pl OLD=NEW... -- FILE...: rename C types (typedef names and
# struct tags) in place where they are used as types, and nowhere else:
# not in comments or string literals, not a variable or a field that has
# the type's name (a `dp *dp` keeps its variable).  A type is a word
# followed by `*` or by a name (a declaration), inside `( )` alone (a cast,
# sizeof), after `struct`, or ending a typedef (`} T;`, `struct X T;`).
# Written for the mechanical renames of internal typedefs (ts_ prefix), so
# that a merge can re-run them: see the commits that used it.
use strict;
use warnings;

my %map;
while (@ARGV && $ARGV[0] ne '--') {
  my ($old, $new) = split /=/, shift @ARGV, 2;
  $map{$old} = $new;
}
shift @ARGV;
my $alt = join '|', map { quotemeta } sort { length $b <=> length $a } keys %map;

sub code {    # a stretch of code, no comment or string in it
  local $_ = shift;
  s/\bstruct\s+($alt)\b/struct $map{$1}/g;
  s/(?<![\w.>])($alt)\b(?=\s*\*)/$map{$1}/g;
  s/(?<![\w.>])($alt)\b(?=\s+(?!(?:if|else|return|while|for|do|sizeof)\b)[A-Za-z_])/$map{$1}/g;
  s/(?<!\w)\(\s*($alt)\s*\)(?=[\w({&*])/($map{$1})/g;    # a cast, not f(x) or if (x)
  s/\b([A-Z][A-Z0-9_]*\()($alt)\)/$1$map{$2})/g;    # TS_VEC(T)
  s/(?<=\} )($alt)(?=;)/$map{$1}/g;
  s/(?<=\bstruct )(\w+ )($alt)(?=;)/$1$map{$2}/g;
  return $_;
}

for my $file (@ARGV) {
  open my $in, '<', $file or die "$file: $!";
  local $/;
  my $text = <$in>;
  close $in;
  my $out = '';
  # comments, strings and character constants are kept as they are
  while ($text =~ m{\G((?:[^"'/]|/(?![*/]))*)((?:/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')?)}gs) {
    my ($c, $keep) = ($1, $2);
    last if $c eq '' && $keep eq '';
    $out .= code($c) . $keep;
  }
  if ($out ne $text) {
    open my $o, '>', $file or die "$file: $!";
    print $o $out;
    close $o;
  }
}
