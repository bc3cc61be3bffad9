/** The invitation page a share link opens: sign up or sign in as a guest (issue 7). */

/** The invitation page a share link opens: sign up or sign in as a guest. */
export function InvitationPage() {
  return null;
}
