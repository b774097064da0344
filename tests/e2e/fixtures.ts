/** The first administrator that the first-run test creates; later tests sign in as them. */
export const firstAdmin = {
  accountName: "Green Leaf Plants",
  name: "Olivia Owner",
  email: "owner@greenleaf.example",
  password: "first-admin-password",
};

export const shot = (name: string) => `test-results/screenshots/${name}.png`;
