import { userOutput } from "@/lib/auth/user-identity";
import { createUserInput, updateUserInput } from "@/lib/users/schemas";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = { name: "Users", description: "The account's administrators and agents." };
const op = operationsFor(tag.name);

export const usersDomain: V1Domain = {
  tag,
  paths: {
    "/v1/users": {
      get: op({
        operationId: "listUsers",
        summary: "List users",
        description: "Oldest first.",
        access: { scope: "users:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of users.", schema: page(userOutput) },
      }),
      post: op({
        operationId: "createUser",
        summary: "Create a user",
        description: "Emits `user.created`. An email already used by another user is a 400 naming `email`.",
        access: { scope: "users:write" },
        body: createUserInput,
        success: { status: "201", description: "The new user.", schema: userOutput },
      }),
    },
    "/v1/users/{id}": {
      get: op({
        operationId: "getUser",
        summary: "Get a user",
        access: { scope: "users:read" },
        path: pathIds({ id: "user" }),
        success: { status: "200", description: "The user.", schema: userOutput },
      }),
      patch: op({
        operationId: "updateUser",
        summary: "Update a user",
        description: "Send at least one field. A new password signs the user out of every session. The last administrator cannot be demoted (409). Emits `user.updated`.",
        access: { scope: "users:write" },
        path: pathIds({ id: "user" }),
        body: updateUserInput,
        success: { status: "200", description: "The updated user.", schema: userOutput },
        errors: [409],
      }),
      delete: op({
        operationId: "deleteUser",
        summary: "Delete a user",
        description: "Their tokens stop working, their conversations return to the open queue and their messages stay attributed to them. The last administrator cannot be deleted (409). Emits `user.deleted`.",
        access: { scope: "users:delete" },
        path: pathIds({ id: "user" }),
        success: deleted,
        errors: [409],
      }),
    },
  },
};
