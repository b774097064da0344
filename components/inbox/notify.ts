"use client";

import { useSyncExternalStore } from "react";

/**
 * Attention for things that need a person: a desktop notification (opt-in, with the browser's
 * permission) and a short chime (opt-in). Any feature calls `notify()`; the person's choices
 * (kept on this device) decide what actually happens.
 */
export type NotifyPrefs = { desktop: boolean; sound: boolean };

const STORAGE_KEY = "chorus.notify.v1";
const defaults: NotifyPrefs = { desktop: false, sound: false };
const listeners = new Set<() => void>();
let cached: NotifyPrefs | null = null;

function getNotifyPrefs(): NotifyPrefs {
  if (cached) return cached;
  if (typeof window === "undefined") return defaults;
  try {
    cached = { ...defaults, ...(JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? "{}") as Partial<NotifyPrefs>) };
  } catch {
    cached = defaults;
  }
  return cached;
}

export function setNotifyPrefs(patch: Partial<NotifyPrefs>) {
  cached = { ...getNotifyPrefs(), ...patch };
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(cached));
  } catch {
    // kept for this page only
  }
  for (const listener of listeners) listener();
}

export function useNotifyPrefs(): NotifyPrefs {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getNotifyPrefs,
    () => defaults,
  );
}

export const desktopNotificationsSupported = () => typeof window !== "undefined" && "Notification" in window;

/** Turns desktop notifications on, asking the browser for permission; false when refused. */
export async function enableDesktopNotifications(): Promise<boolean> {
  if (!desktopNotificationsSupported()) return false;
  const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  setNotifyPrefs({ desktop: permission === "granted" });
  return permission === "granted";
}

let audio: AudioContext | null = null;

/** Two soft notes; generated, so there is no file to load. */
export function playChime() {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime + 0.01;
    for (const [offset, frequency] of [
      [0, 880],
      [0.12, 1320],
    ]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.3);
    }
  } catch {
    // no audio output: the notification still shows
  }
}

export type Notice = {
  title: string;
  body: string;
  /** One notification per tag: a newer one replaces the older. */
  tag?: string;
  /** Where a click on the notification leads. */
  href?: string;
};

/** Tells the person, as they chose: a chime and/or a desktop notification (only while the tab is not in front). */
export function notify(notice: Notice) {
  if (typeof window === "undefined") return;
  const prefs = getNotifyPrefs();
  if (prefs.sound) playChime();
  if (!prefs.desktop || !desktopNotificationsSupported() || Notification.permission !== "granted") return;
  if (document.visibilityState === "visible" && document.hasFocus()) return;
  try {
    const shown = new Notification(notice.title, { body: notice.body, tag: notice.tag, icon: "/icon.svg" });
    shown.onclick = () => {
      window.focus();
      if (notice.href) window.location.assign(notice.href);
      shown.close();
    };
  } catch {
    // some browsers only allow notifications from a service worker; the chime still played
  }
}
